// The load bench's servers, each a child process of its own (its memory and event loop are its own, apart
// from autocannon's): the built shop and the bare Fastify baseline.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export type ServerProcess = {
  url: string;
  pid: number;
  /** The last lines the process wrote (stderr and stdout), for a failure's message. */
  output(): string;
  stop(): Promise<void>;
};

/** A port free right now on loopback (the kernel's pick). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `node script` with env on a free port; resolves once `readyPath` answers 200. */
export async function startServer(
  script: string,
  env: Record<string, string>,
  readyPath: string,
): Promise<ServerProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [script], {
    cwd: path.dirname(script),
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
  };
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}:\n${log}`);
    try {
      if ((await fetch(url + readyPath)).status === 200) {
        return { url, pid: child.pid!, output: () => log, stop };
      }
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`${script} did not answer ${readyPath} within 30 s:\n${log}`);
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
}

/**
 * A process's peak resident memory per phase: the kernel's high-water mark (VmHWM: every page it held at
 * once, also between two looks), reset at each mark by writing 5 to /proc/<pid>/clear_refs.
 */
export function memoryPhases(pid: number) {
  const phases: [string, number][] = [];
  let resets = true;
  return {
    /** Ends a phase: its peak in bytes, and a new phase starts from the memory held now. */
    mark(name: string): number {
      const peak = statusKb(pid, 'VmHWM') * 1024;
      phases.push([name, peak]);
      try {
        fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        resets = false;
      }
      return peak;
    },
    phases: () => phases,
    /** false when the kernel refused the reset: each figure is then the peak since the start. */
    resets: () => resets,
  };
}

export type ProbeFigures = {
  count: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
  /** The probe's own event loop delay at worst. */
  ownMax: number;
};

/** The event loop probe (probe.mjs) in a process of its own, asking `url` every 20 ms; its figures when stopped. */
export function startProbe(
  script: string,
  url: string,
  request: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const child = spawn(process.execPath, [script, url, '20', JSON.stringify(request)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop(): Promise<ProbeFigures> {
      child.kill('SIGTERM');
      await exited;
      return JSON.parse(out) as ProbeFigures;
    },
  };
}
