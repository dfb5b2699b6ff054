// Upload endpoint vs a bare multipart route: POST /api/uploads (stream to disk + content hash, worker
// analysis, preview, store, row) against a Fastify route that only streams the same body to a file.
// Prints milliseconds per upload (curl's clock; medians, the routes taking turns), the ratio against its
// target, the answer with the view mesh made as before (SHOP_BENCH_LAZY_VIEW=1: the baseline, whose answer
// must not be quicker), the CPU time an upload costs the machine and the least wall time that leaves it on
// this machine's cores, where the shop's time went (the route's Server-Timing: checks before the file is
// read (session, quotas, disk), receive with the hash, streamed (the analysis' work while the file was still
// arriving, when it followed the upload), queue, analysis with the watertight check (after the last byte),
// preview, view mesh when made inline, store, database) and the event loop's worst delay during the uploads
// and while ten uploads run at once; no pass/fail.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';
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

// curl is started by a small process of its own (curl-launcher.mjs), not forked from this one.
const launcher = spawn(process.execPath, [path.join(import.meta.dirname, 'curl-launcher.mjs')], {
  stdio: 'pipe',
});
launcher.stderr!.pipe(process.stderr);
type Launched = { out: string; err: string };
const launched = new Map<number, { resolve: (output: Launched) => void; reject: (err: Error) => void }>();
let launches = 0;
readline.createInterface({ input: launcher.stdout! }).on('line', (line) => {
  const { id, stdout, stderr, error } = JSON.parse(line) as {
    id: number;
    stdout?: string;
    stderr?: string;
    error?: string;
  };
  const waiter = launched.get(id)!;
  launched.delete(id);
  if (error === undefined) waiter.resolve({ out: stdout!, err: stderr! });
  else waiter.reject(new Error(error));
});
/** Runs bash with these arguments from the launcher: its standard output and error. */
function launch(args: string[]): Promise<Launched> {
  const id = launches++;
  return new Promise((resolve, reject) => {
    launched.set(id, { resolve, reject });
    launcher.stdin!.write(`${JSON.stringify({ id, args })}\n`);
  });
}

/**
 * POSTs the body in file with curl (more of its options in extra): its status, Server-Timing header and the
 * CPU milliseconds curl used (bash's `times`: what the client costs the machine's cores). `nice`: curl runs
 * at that lower priority.
 */
async function post(url: string, file: string, contentType: string, extra: string[] = [], nice = 0) {
  const stdout = await launch([
    '-c',
    // `times` before and after: its second line is the shell's children's CPU so far, which here can
    // hold hundreds of milliseconds before curl has run (seen when the bench's output went to a file).
    `times >&2; nice -n ${nice} curl "$@"; status=$?; times; exit $status`,
    'curl',
    ...extra,
    '-s',
    '-S',
    '-o',
    '/dev/null',
    '-D',
    '-',
    // The request's own time, from curl's clock: starting curl is no part of either route's upload.
    '-w',
    'curl-total %{time_total}\n',
    '-X',
    'POST',
    '-H',
    `content-type: ${contentType}`,
    '-H',
    'expect:',
    // Streamed from the file as it is sent, as a browser sends one: `--data-binary @file` reads the whole
    // file into memory before it connects, time that fell on both routes alike and flattered the ratio.
    '--upload-file',
    file,
    url,
  ]);
  const status = Number(/^HTTP\/[\d.]+ (\d+)/.exec(stdout.out)?.[1]);
  const childrenMs = (text: string) =>
    [
      ...text
        .trim()
        .split('\n')
        .at(-1)!
        .matchAll(/(\d+)m([\d.]+)s/g),
    ].reduce((sum, [, m, sec]) => sum + (Number(m) * 60 + Number(sec)) * 1000, 0);
  const clientCpuMs = childrenMs(stdout.out) - childrenMs(stdout.err);
  return {
    status,
    wallMs: Number(/^curl-total ([\d.]+)$/m.exec(stdout.out)?.[1]) * 1000,
    body: stdout.out,
    timing: /^server-timing: (.*)$/im.exec(stdout.out)?.[1]?.trim(),
    clientCpuMs,
  };
}

/**
 * The event loop's longest stall while watched, and how the thread spent it (Linux: its schedstat): running
 * (its own work: JavaScript, a collection) or waiting for a core (other threads and processes had them).
 */
function watchStalls() {
  const schedstat = '/proc/thread-self/schedstat';
  // Looked for once: not on every tick of a 5 ms timer.
  const linux = fs.existsSync(schedstat);
  const read = () => (linux ? fs.readFileSync(schedstat, 'utf8').split(' ').map(Number) : null);
  const start = performance.now();
  let last = start;
  let lastStat = read();
  let worst = { ms: 0, at: 0, runningMs: Number.NaN, waitingMs: Number.NaN };
  const timer = setInterval(() => {
    const now = performance.now();
    const stat = read();
    if (now - last > worst.ms) {
      worst = {
        ms: now - last,
        at: last - start,
        runningMs: stat && lastStat ? (stat[0]! - lastStat[0]!) / 1e6 : Number.NaN,
        waitingMs: stat && lastStat ? (stat[1]! - lastStat[1]!) / 1e6 : Number.NaN,
      };
    }
    last = now;
    lastStat = stat;
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      return `its longest stall ${worst.ms.toFixed(0)} ms at ${(worst.at / 1000).toFixed(1)} s: ${worst.runningMs.toFixed(0)} ms running, ${worst.waitingMs.toFixed(0)} ms waiting for a core`;
    },
  };
}

let loopMax = 0;
let loopP99 = 0;

type Route = {
  /** One upload: its client's CPU milliseconds and the request's time (curl's clock). */
  run: () => Promise<{ clientCpuMs: number; wallMs: number }>;
  /** Untimed, after each upload (a big model's extras made after its answer). */
  between?: () => Promise<void>;
  watchLoop?: boolean;
};
type Timed = { wallMs: number[]; cpuMs: number[] };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/**
 * The routes' uploads in turns (one of each, then again), after a warm-up of each (a thread's start, the
 * JIT): on a shared, noisy machine a quiet or busy spell then falls on all of them alike, where runs of
 * one route after the other's put it on one. Each upload's wall time and the CPU it cost the machine (this
 * process, every thread of it, and the client).
 */
async function inTurns(routes: Route[], rounds: number): Promise<Timed[]> {
  const timed = routes.map(() => ({ wallMs: [] as number[], cpuMs: [] as number[] }));
  for (const route of routes) {
    await route.run();
    await route.between?.();
  }
  for (let k = 0; k < rounds; k++) {
    for (const [i, route] of routes.entries()) {
      // A new histogram per run: a re-enabled one counts the pause since it was disabled as a delay.
      const loop = monitorEventLoopDelay({ resolution: 5 });
      if (route.watchLoop) loop.enable();
      const cpu = process.cpuUsage();
      const { clientCpuMs, wallMs } = await route.run();
      const used = process.cpuUsage(cpu);
      loop.disable();
      if (route.watchLoop) {
        loopMax = Math.max(loopMax, loop.max / 1e6);
        loopP99 = Math.max(loopP99, loop.percentile(99) / 1e6);
      }
      timed[i]!.wallMs.push(wallMs);
      timed[i]!.cpuMs.push((used.user + used.system) / 1000 + clientCpuMs);
      await route.between?.();
    }
  }
  return timed;
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
    rounds: 5,
    target: 1.3,
  },
  {
    name: 'OBJ, 32 MB',
    fileName: 'sphere.obj',
    bytes: concatChunks(bigObj(32 * MB)),
    rounds: 5,
    target: 1.5,
  },
  {
    name: `3MF, ${(sphere3mf.length / MB).toFixed(0)} MB`,
    fileName: 'sphere.3mf',
    bytes: sphere3mf,
    rounds: 5,
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

const cores = os.availableParallelism();
console.log(
  `${cores} cores; medians of uploads taken in turns (shop, bare route, baseline), by curl's clock; CPU: what an upload cost this process (all its threads) and curl`,
);
console.log('case                     shop ms   bare ms   ratio   baseline ms   target');
const breakdowns: string[] = [];
const floors: string[] = [];
for (const c of cases) {
  const sums = new Map<string, number>();
  let measured = 0;
  // The warm-up round (a thread's start, the JIT) is not one of the measured rounds.
  let warm = false;
  // Every round is a new browser, so no upload is answered from the content-hash dedupe.
  const { payload, contentType } = multipartBody([{ fileName: c.fileName, bytes: c.bytes }]);
  const bodyFile = path.join(dir, 'body');
  fs.writeFileSync(bodyFile, payload);
  const [shopTimes, bareTimes, lazyTimes] = await inTurns(
    [
      {
        run: async () => {
          const res = await post(shopUrl, bodyFile, contentType);
          if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.body}`);
          if (warm) {
            addTimings(res.timing, sums);
            measured++;
          }
          warm = true;
          await database.pglite.query('delete from models');
          return res;
        },
        // A big model's preview and view mesh are made after the answer: let them finish, so the next upload does not wait.
        between: extrasSettled,
        watchLoop: true,
      },
      {
        run: async () => {
          const res = await post(bareUrl, bodyFile, contentType);
          if (res.status !== 200) throw new Error(`bare route answered ${res.status}`);
          return res;
        },
      },
      {
        run: async () => {
          const res = await post(lazyUrl, bodyFile, contentType);
          if (res.status !== 201) throw new Error(`baseline upload answered ${res.status}: ${res.body}`);
          await lazyShop.database.pglite.query('delete from models');
          return res;
        },
        between: extrasSettled,
      },
    ],
    c.rounds,
  );
  const shop = median(shopTimes!.wallMs);
  const base = median(bareTimes!.wallMs);
  const lazy = median(lazyTimes!.wallMs);
  const ratio = shop / base;
  const target =
    'target' in c ? `<= ${c.target}x: ${ratio <= c.target! ? 'target holds' : 'TARGET MISSED'}` : '';
  console.log(
    `${c.name.padEnd(24)} ${shop.toFixed(0).padStart(7)} ${base.toFixed(0).padStart(9)} ${ratio.toFixed(2).padStart(7)}x ${lazy.toFixed(0).padStart(13)}   ${target}`,
  );
  const stages = [...sums].map(([name, ms]) => `${name} ${(ms / measured).toFixed(0)}`).join(', ');
  breakdowns.push(`${c.name.padEnd(24)} ${stages} (ms; bare receive ${base.toFixed(0)})`);
  // However the work is spread, the cores cannot finish it sooner than its CPU time over their number.
  const shopCpu = median(shopTimes!.cpuMs);
  const floor = shopCpu / cores;
  floors.push(
    `${c.name.padEnd(24)} shop ${shopCpu.toFixed(0)}, bare ${median(bareTimes!.cpuMs).toFixed(0)}: the shop's upload takes at least ${floor.toFixed(0)} ms on ${cores} cores, ${(floor / base).toFixed(2)}x the bare route${'target' in c ? ` (target ${c.target}x)` : ''}`,
  );
}

console.log('\nCPU milliseconds an upload costs the machine (median), and the least wall time it allows:');
for (const line of floors) console.log(`  ${line}`);
console.log('\nwhere the shop spends an upload (mean of the measured rounds):');
for (const line of breakdowns) console.log(`  ${line}`);
console.log(
  `\nevent loop delay during the shop's uploads, one at a time: max ${loopMax.toFixed(1)} ms, p99 ${loopP99.toFixed(1)} ms`,
);

// Ten uploads at once, each a new browser: the server keeps answering other requests meanwhile. Their ten
// curl processes stand in for browsers on other machines, so they run at a lower priority (nice 10): at the
// same priority the kernel shares the two cores out among a dozen runnable threads, ten of them curl's, and
// this event loop then waits for a core (its thread's runqueue time, /proc/thread-self/schedstat) for up to
// 100-370 ms on a machine whose sockets cost much system time. Waiting on its own work is what this measures.
// The uploads take as long either way.
{
  const c = cases[1]!;
  const { payload, contentType } = multipartBody([{ fileName: c.fileName, bytes: c.bytes }]);
  const bodyFile = path.join(dir, 'body');
  fs.writeFileSync(bodyFile, payload);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const start = performance.now();
  // Starting ten curl processes blocks this event loop for tens of milliseconds (each a fork of this large
  // process): the client's cost, not the server's, so the delays are watched from when they have started.
  const uploads = Array.from({ length: 10 }, () => post(shopUrl, bodyFile, contentType, [], 10));
  loop.enable();
  const stalls = watchStalls();
  const statuses = await Promise.all(uploads);
  const answered = performance.now() - start;
  await extrasSettled();
  loop.disable();
  const stall = stalls.stop();
  const codes = statuses.map((r) => r.status).join(' ');
  // How long the models waited for the analysis thread once received (their Server-Timing 'queue').
  const queued = statuses.map((r) => {
    const sums = new Map<string, number>();
    addTimings(r.timing, sums);
    return sums.get('queue') ?? 0;
  });
  console.log(
    `event loop delay while ten ${c.name} uploads run at once (clients at nice 10; answered in ${answered.toFixed(0)} ms, then the views not left for later; statuses ${codes}): max ${(loop.max / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms (< 50 ms: ${loop.max / 1e6 < 50 ? 'target holds' : 'TARGET MISSED'}); ${stall}; the longest wait for the analysis thread ${Math.max(...queued).toFixed(0)} ms`,
  );
}

// The 3MF over a home connection (~10 MB a second, curl's --limit-rate): the customer's wait after the last
// byte, which reading its parts as they land (early-parts.ts) leaves to the rest of the analysis.
{
  const c = cases[3]!;
  const { payload, contentType } = multipartBody([{ fileName: c.fileName, bytes: c.bytes }]);
  const bodyFile = path.join(dir, 'body');
  fs.writeFileSync(bodyFile, payload);
  const after = (timing: string | undefined) => {
    const sums = new Map<string, number>();
    addTimings(timing, sums);
    return ['queue', 'analysis', 'preview', 'view', 'store', 'db'].reduce(
      (t, k) => t + (sums.get(k) ?? 0),
      0,
    );
  };
  const waits = { slow: [] as number[], fast: [] as number[] };
  for (let k = 0; k < 4; k++) {
    for (const [kind, extra] of [
      ['slow', ['--limit-rate', String(10 * MB)]],
      ['fast', []],
    ] as const) {
      const res = await post(shopUrl, bodyFile, contentType, [...extra]);
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.body}`);
      if (k > 0) waits[kind].push(after(res.timing));
      await database.pglite.query('delete from models');
      await extrasSettled();
    }
  }
  console.log(
    `${c.name} at ~10 MB/s: answered ${median(waits.slow).toFixed(0)} ms after its last byte, against ${median(waits.fast).toFixed(0)} ms when it arrives at once (median of 3 each)`,
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
      const res = await post(url, bodyFile, contentType, ['--limit-rate', String(rate)]);
      if (res.status !== 201) throw new Error(`the first upload answered ${res.status}: ${res.body}`);
      return res.wallMs;
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
launcher.stdin!.end();
