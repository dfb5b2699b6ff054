// Upload endpoint vs a bare multipart route: POST /api/uploads (stream to disk + SHA-256, worker
// analysis, preview, store, row) against a Fastify route that only streams the same body to a file.
// Prints milliseconds per upload, the ratio against its target, the answer with the view mesh made as
// before (SHOP_BENCH_LAZY_VIEW=1: the baseline, whose answer must not be quicker), where the shop's time
// went (the route's Server-Timing: receive with the hash, streamed (the analysis' work while the file was
// still arriving, when it followed the upload), queue, analysis with the watertight check (after the last
// byte), preview, view mesh when made inline, store, database) and the event loop's worst delay during the
// uploads and while ten uploads run at once; no pass/fail.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import { bigBinaryStl, bigObj, concatChunks, uvSphere } from '../src/mesh/testing/generate.ts';
import { simple3mf } from '../src/mesh/testing/threemf.ts';
import { extrasSettled } from '../src/server/models/extras-service.ts';
import { multipartBody } from '../src/server/models/testing.ts';
import { startBenchShop } from './shop.ts';

const MB = 1024 * 1024;

// The baseline first (the pool reads the switch when the app starts), then the shop as it is.
process.env.SHOP_BENCH_LAZY_VIEW = '1';
const lazyShop = await startBenchShop('upload-lazy');
delete process.env.SHOP_BENCH_LAZY_VIEW;
const shop = await startBenchShop('upload');
const { app, database, dir } = shop;

const bare = Fastify();
await bare.register(multipart, { limits: { fileSize: 64 * MB, files: 1 } });
bare.post('/api/uploads', async (req) => {
  const part = await req.file();
  if (!part) return { ok: false };
  const file = path.join(dir, `bare-${Date.now()}-${Math.random()}`);
  await pipeline(part.file, fs.createWriteStream(file));
  fs.rmSync(file);
  return { ok: true };
});

// Both routes are measured over a real socket from curl, another process, as a browser uploads:
// app.inject() hands the whole body over at once, which no client does, and a client in this process would
// share the server's event loop.
const shopUrl = `${await app.listen({ host: '127.0.0.1', port: 0 })}/api/uploads`;
const lazyUrl = `${await lazyShop.app.listen({ host: '127.0.0.1', port: 0 })}/api/uploads`;
const bareUrl = `${await bare.listen({ host: '127.0.0.1', port: 0 })}/api/uploads`;
const run = promisify(execFile);

/** POSTs the body in file with curl (more of its options in extra); its status and Server-Timing header. */
async function post(url: string, file: string, contentType: string, extra: string[] = []) {
  const { stdout } = await run('curl', [
    ...extra,
    '-s',
    '-S',
    '-o',
    '/dev/null',
    '-D',
    '-',
    '-X',
    'POST',
    '-H',
    `content-type: ${contentType}`,
    '-H',
    'expect:',
    '--data-binary',
    `@${file}`,
    url,
  ]);
  const status = Number(/^HTTP\/[\d.]+ (\d+)/.exec(stdout)?.[1]);
  return { status, body: stdout, timing: /^server-timing: (.*)$/im.exec(stdout)?.[1]?.trim() };
}

let loopMax = 0;
let loopP99 = 0;

/** Mean time of run over rounds after a warm-up; between (untimed) runs after each. */
async function time(
  run: () => Promise<void>,
  rounds: number,
  options: { between?: () => Promise<void>; watchLoop?: boolean } = {},
): Promise<number> {
  await run(); // warm-up (worker start, JIT)
  await options.between?.();
  let total = 0;
  for (let k = 0; k < rounds; k++) {
    // A new histogram per run: a re-enabled one counts the pause since it was disabled as a delay.
    const loop = monitorEventLoopDelay({ resolution: 5 });
    if (options.watchLoop) loop.enable();
    const start = performance.now();
    await run();
    total += performance.now() - start;
    loop.disable();
    if (options.watchLoop) {
      loopMax = Math.max(loopMax, loop.max / 1e6);
      loopP99 = Math.max(loopP99, loop.percentile(99) / 1e6);
    }
    await options.between?.();
  }
  return total / rounds;
}

// About 10 MB: a million triangles, as a slicer writes a detailed part.
const sphere3mf = simple3mf({ objects: [{ id: 1, mesh: uvSphere(40, 710, 710) }], build: [{ objectid: 1 }] });

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
    target: 1.3,
  },
  {
    name: 'OBJ, 32 MB',
    fileName: 'sphere.obj',
    bytes: concatChunks(bigObj(32 * MB)),
    rounds: 3,
    target: 1.5,
  },
  {
    name: `3MF, ${(sphere3mf.length / MB).toFixed(0)} MB`,
    fileName: 'sphere.3mf',
    bytes: sphere3mf,
    rounds: 3,
    target: 2,
  },
];

/** Adds a response's Server-Timing durations into sums. */
function addTimings(header: string | undefined, sums: Map<string, number>) {
  for (const part of (header ?? '').split(',')) {
    const [name, dur] = part.trim().split(';dur=');
    if (name && dur) sums.set(name, (sums.get(name) ?? 0) + Number(dur));
  }
}

console.log('case                     shop ms   bare ms   ratio   baseline ms   target');
const breakdowns: string[] = [];
for (const c of cases) {
  const sums = new Map<string, number>();
  let measured = 0;
  // The warm-up round (a thread's start, the JIT) is not one of the measured rounds.
  let warm = false;
  // Every round is a new browser, so no upload is answered from the content-hash dedupe.
  const { payload, contentType } = multipartBody([{ fileName: c.fileName, bytes: c.bytes }]);
  const bodyFile = path.join(dir, 'body');
  fs.writeFileSync(bodyFile, payload);
  const shop = await time(
    async () => {
      const res = await post(shopUrl, bodyFile, contentType);
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.body}`);
      if (warm) {
        addTimings(res.timing, sums);
        measured++;
      }
      warm = true;
      await database.pglite.query('delete from models');
    },
    c.rounds,
    // A big model's preview and view mesh are made after the answer: let them finish, so the next upload does not wait.
    { watchLoop: true, between: extrasSettled },
  );
  const base = await time(async () => {
    const res = await post(bareUrl, bodyFile, contentType);
    if (res.status !== 200) throw new Error(`bare route answered ${res.status}`);
  }, c.rounds);
  const lazy = await time(
    async () => {
      const res = await post(lazyUrl, bodyFile, contentType);
      if (res.status !== 201) throw new Error(`baseline upload answered ${res.status}: ${res.body}`);
      await lazyShop.database.pglite.query('delete from models');
    },
    c.rounds,
    { between: extrasSettled },
  );
  const ratio = shop / base;
  const target =
    'target' in c ? `<= ${c.target}x: ${ratio <= c.target! ? 'target holds' : 'TARGET MISSED'}` : '';
  console.log(
    `${c.name.padEnd(24)} ${shop.toFixed(0).padStart(7)} ${base.toFixed(0).padStart(9)} ${ratio.toFixed(2).padStart(7)}x ${lazy.toFixed(0).padStart(13)}   ${target}`,
  );
  const stages = [...sums].map(([name, ms]) => `${name} ${(ms / measured).toFixed(0)}`).join(', ');
  breakdowns.push(`${c.name.padEnd(24)} ${stages} (ms; bare receive ${base.toFixed(0)})`);
}

console.log('\nwhere the shop spends an upload (mean of the measured rounds):');
for (const line of breakdowns) console.log(`  ${line}`);
console.log(
  `\nevent loop delay during the shop's uploads, one at a time: max ${loopMax.toFixed(1)} ms, p99 ${loopP99.toFixed(1)} ms`,
);

// Ten uploads at once, each a new browser: the server keeps answering other requests meanwhile.
{
  const c = cases[1]!;
  const { payload, contentType } = multipartBody([{ fileName: c.fileName, bytes: c.bytes }]);
  const bodyFile = path.join(dir, 'body');
  fs.writeFileSync(bodyFile, payload);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const start = performance.now();
  // Starting ten curl processes blocks this event loop for tens of milliseconds (each a fork of this large
  // process): the client's cost, not the server's, so the delays are watched from when they have started.
  const uploads = Array.from({ length: 10 }, () => post(shopUrl, bodyFile, contentType));
  loop.enable();
  const statuses = await Promise.all(uploads);
  const answered = performance.now() - start;
  await extrasSettled();
  loop.disable();
  const codes = statuses.map((r) => r.status).join(' ');
  console.log(
    `event loop delay while ten ${c.name} uploads run at once (answered in ${answered.toFixed(0)} ms, then their views; statuses ${codes}): max ${(loop.max / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms (< 50 ms: ${loop.max / 1e6 < 50 ? 'target holds' : 'TARGET MISSED'})`,
  );
}

// The first upload after the analysis threads ended (a minute idle, or a new start): a small STL sent over
// about half a second, as over a home connection, to a new shop each round, with the thread made ready when
// the upload begins and without (SHOP_BENCH_NO_WARM=1: the upload's task starts it). Threads load through
// tsx here, which starts them slower than the built server does.
{
  const { payload, contentType } = multipartBody([
    { fileName: 'small.stl', bytes: concatChunks(bigBinaryStl(MB / 2)) },
  ]);
  const bodyFile = path.join(dir, 'small-body');
  fs.writeFileSync(bodyFile, payload);
  const rate = 1024 * 1024;
  const sendMs = (payload.length / rate) * 1000;
  const firstUpload = async (warm: boolean) => {
    if (!warm) process.env.SHOP_BENCH_NO_WARM = '1';
    const cold = await startBenchShop('upload-cold');
    delete process.env.SHOP_BENCH_NO_WARM;
    try {
      const url = `${await cold.app.listen({ host: '127.0.0.1', port: 0 })}/api/uploads`;
      const start = performance.now();
      const res = await post(url, bodyFile, contentType, ['--limit-rate', String(rate)]);
      if (res.status !== 201) throw new Error(`the first upload answered ${res.status}: ${res.body}`);
      return performance.now() - start;
    } finally {
      await cold.close();
    }
  };
  const withWarm: number[] = [];
  const without: number[] = [];
  for (let k = 0; k < 3; k++) {
    without.push(await firstUpload(false));
    withWarm.push(await firstUpload(true));
  }
  const mid = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
  console.log(
    `first upload on a new pool (${(payload.length / 1024).toFixed(0)} kB STL sent in ~${sendMs.toFixed(0)} ms; median of 3): answered in ${mid(withWarm).toFixed(0)} ms with a thread readied as it begins, ${mid(without).toFixed(0)} ms without (the baseline)`,
  );
}

await bare.close();
await shop.close();
await lazyShop.close();
