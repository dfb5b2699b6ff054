import { Writable } from 'node:stream';

export type LogEntry = { level: number; msg?: string; [k: string]: unknown };

/** A stream for buildTestApp's `logStream` that keeps every line, and the lines parsed. */
export function captureLog() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines, entries: (): LogEntry[] => lines.map((l) => JSON.parse(l) as LogEntry) };
}

/** pino's numbers for the levels tests look at. */
export const LEVEL = { info: 30, warn: 40, error: 50 } as const;
