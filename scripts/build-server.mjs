#!/usr/bin/env node
// `npm run build:server`: compiles the server to plain JavaScript in dist/ (tsconfig.server.json) and copies
// what it reads at run time beside it: the SQL migrations. `npm start` then runs `node dist/server/main.js`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const outDir = process.argv[2] ?? 'dist';
for (const dir of ['server', 'shared', 'mesh'])
  fs.rmSync(path.join(outDir, dir), { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.server.json', '--outDir', outDir],
  { stdio: 'inherit' },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
fs.cpSync('src/server/db/migrations', path.join(outDir, 'server/db/migrations'), { recursive: true });
