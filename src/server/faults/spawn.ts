import { type ChildProcess, spawn } from 'node:child_process';

// The shop as its owner runs it (`node --import tsx src/server/main.ts`), in a child process a test can
// kill with SIGKILL: no shutdown hook runs, as in a crash or a power cut of the process.

export type ShopProcess = {
  child: ChildProcess;
  /** `http://127.0.0.1:port`. */
  url: string;
  output(): string;
  /** Sends the signal and waits for the process to be gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
};

const running = new Set<ChildProcess>();

/** Kills every shop still running (afterAll). */
export function killAllShops(): void {
  for (const child of running) child.kill('SIGKILL');
}

export function startShop(env: Record<string, string>): Promise<ShopProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      // Not 'test': the outbox worker polls and sends as in production.
      NODE_ENV: 'development',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const gone = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d;
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) {
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        child.stdout?.on('data', (more: Buffer) => {
          output += more;
        });
        child.stderr?.on('data', (more: Buffer) => {
          output += more;
        });
        resolve({
          child,
          url: m[1]!,
          output: () => output,
          kill: async (signal) => {
            child.kill(signal);
            await gone;
          },
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`the shop exited (${code ?? signal}): ${output}`)));
  });
}
