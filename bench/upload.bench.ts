// Upload endpoint vs a bare multipart route: POST /api/uploads (stream to disk + SHA-256, worker
// analysis, preview, store, row) against a Fastify route that only streams the same body to a file.
// Prints milliseconds per upload and the ratio; no pass/fail on absolute time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import { bigBinaryStl, bigObj, concatChunks } from '../src/mesh/testing/generate.ts';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openPglite } from '../src/server/db/client.ts';
import { multipartBody } from '../src/server/models/testing.ts';

const MB = 1024 * 1024;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-bench-upload-'));
const database = await openPglite();
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATA_DIR: dir,
  RATE_LIMIT_SCALE: '1000',
  CLIENT_DIR: path.join(dir, 'none'),
});
const app = await buildApp({ config, database });

const bare = Fastify();
await bare.register(multipart, { limits: { fileSize: 64 * MB, files: 1 } });
bare.post('/upload', async (req) => {
  const part = await req.file();
  if (!part) return { ok: false };
  const file = path.join(dir, `bare-${Date.now()}-${Math.random()}`);
  await pipeline(part.file, fs.createWriteStream(file));
  fs.rmSync(file);
  return { ok: true };
});

async function time(run: () => Promise<void>, rounds: number): Promise<number> {
  await run(); // warm-up (worker start, JIT)
  const start = performance.now();
  for (let k = 0; k < rounds; k++) await run();
  return (performance.now() - start) / rounds;
}

const cases = [
  {
    name: 'binary STL, 16 MB',
    fileName: 'sphere.stl',
    bytes: concatChunks(bigBinaryStl(16 * MB)),
    rounds: 5,
  },
  {
    name: 'binary STL, 64 MB',
    fileName: 'sphere.stl',
    bytes: concatChunks(bigBinaryStl(64 * MB)),
    rounds: 3,
  },
  { name: 'OBJ, 32 MB', fileName: 'sphere.obj', bytes: concatChunks(bigObj(32 * MB)), rounds: 3 },
];

console.log('case                     shop ms   bare ms   ratio');
for (const c of cases) {
  // Every round is a new browser, so no upload is answered from the content-hash dedupe.
  const { payload, contentType } = multipartBody([{ fileName: c.fileName, bytes: c.bytes }]);
  const shop = await time(async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { 'content-type': contentType },
      payload,
    });
    if (res.statusCode !== 201) throw new Error(`upload answered ${res.statusCode}: ${res.body}`);
    await database.pglite.query('delete from models');
  }, c.rounds);
  const base = await time(async () => {
    const res = await bare.inject({
      method: 'POST',
      url: '/upload',
      headers: { 'content-type': contentType },
      payload,
    });
    if (res.statusCode !== 200) throw new Error(`bare route answered ${res.statusCode}`);
  }, c.rounds);
  console.log(
    `${c.name.padEnd(24)} ${shop.toFixed(0).padStart(7)} ${base.toFixed(0).padStart(9)} ${(shop / base).toFixed(2).padStart(7)}x`,
  );
}

await app.close();
await bare.close();
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
