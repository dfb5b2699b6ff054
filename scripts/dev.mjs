#!/usr/bin/env node
// `npm run dev`: the server with restart on change (PORT, default 3000) and Vite's dev server with hot reload
// (VITE_PORT, default 5173, proxying /api to the server). Open http://localhost:5173.
// Ctrl+C or SIGTERM stops both, and either one ending stops the other: nothing is left holding a port.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const port = process.env.PORT ?? '3000';
const vitePort = process.env.VITE_PORT ?? '5173';
const vite = fileURLToPath(new URL('../node_modules/vite/bin/vite.js', import.meta.url));

// Each child leads a process group of its own, so stopping the group also stops what it started (node --watch
// runs the server as its child). Vite's stdin is a pipe from here: Vite closes when it ends, so even this
// script killed outright (SIGKILL) takes Vite down with it.
const children = [
  spawn(process.execPath, ['--watch', '--import', 'tsx', 'src/server/main.ts'], {
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { NODE_ENV: 'development', PUBLIC_URL: `http://localhost:${vitePort}`, ...process.env, PORT: port },
  }),
  spawn(process.execPath, [vite, '--port', vitePort, '--strictPort'], {
    detached: true,
    stdio: ['pipe', 'inherit', 'inherit'],
    env: { ...process.env, PORT: port },
  }),
];

const running = (c) => c.exitCode === null && c.signalCode === null;
const signalGroup = (c, signal) => {
  try {
    process.kill(-c.pid, signal);
  } catch {
    // The group is gone already.
  }
};

let stopping = false;
function stop(signal) {
  if (stopping) return;
  stopping = true;
  for (const c of children) signalGroup(c, signal);
  // What ignores the signal is killed once the grace period is over.
  setTimeout(() => {
    for (const c of children) signalGroup(c, 'SIGKILL');
  }, 5000).unref();
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal));
for (const c of children)
  c.on('exit', (code, signal) => {
    // The first to end on its own says how it went; stopping on a signal is a clean end.
    if (!stopping) process.exitCode = code ?? (signal ? 1 : 0);
    stop('SIGTERM');
    // Whatever the group leader left behind (the server under node --watch) goes too.
    signalGroup(c, 'SIGKILL');
    if (!children.some(running)) process.exit();
  });
