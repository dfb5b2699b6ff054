#!/usr/bin/env node
// `npm start`: builds the client and the server when their sources changed (scripts/build-once.mjs), then
// runs the compiled server in this process. Any number of instances may be started at once from one checkout.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from './build-once.mjs';

const root = path.resolve(import.meta.dirname, '..');
try {
  await ensureBuilt(root);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
await import(pathToFileURL(path.join(root, 'dist/server/main.js')).href);
