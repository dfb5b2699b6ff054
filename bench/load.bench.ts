// The shop under load (issue 28): the built server (`node dist/server/main.js`, a child process) on loopback
// against a bare Fastify server answering a small JSON (another child process, the baseline), driven by
// autocannon from this process. Per route and at 10 and 100 connections: requests/s, p50/p99, errors and
// non-2xx, and their ratios to the baseline. Then ten 64 MB uploads at once while the same routes are asked
// at a steady rate: each upload's answer and view mesh, the server's peak memory, the other requests' p99,
// and the server's event loop delay as a probe process sees it. Prints "target held"/"MISSED" and exits 1
// only on errors. PGlite by default; with DATABASE_URL, a database of its own on that PostgreSQL server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtServer } from './load/build.ts';
import { type Figures, load, row, TABLE_HEADER, type Target } from './load/cannon.ts';
import { type BenchDatabase, benchDatabase } from './load/database.ts';
import { memoryPhases, type ServerProcess, startProbe, startServer } from './load/processes.ts';
import { seedCustomer } from './load/seed.ts';
import { uploadAll, writeBodies } from './load/uploads.ts';

const MB = 1024 * 1024;
const GB = 1024 * MB;
const SECONDS = 5;
const CONNECTIONS = [10, 100];
const ORDERS = 50;
const UPLOADS = 10;
/** Requests a second per route while the uploads run: a steady trickle of shoppers, not a flood. */
const RATE_DURING_UPLOADS = 10;
// Rate limits would turn a load from one address into 429s, and the per-address connection cap (64) would
// refuse 100 connections: both are lifted for the bench, as the output says.
const RATE_LIMIT_SCALE = '100000';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '..');
const problems: string[] = [];
const verdict = (held: boolean) => (held ? 'target held' : 'MISSED');
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

const built = builtServer(root);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-bench-load-data-'));
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-bench-load-work-'));
let shop: ServerProcess | undefined;
let bare: ServerProcess | undefined;
let database: BenchDatabase | undefined;

try {
  database = await benchDatabase(process.env.DATABASE_URL);
  console.log(`server: node dist/server/main.js (a copy of dist/: ${built.note})`);
  console.log(`database: ${database.label}`);
  console.log(
    `env: NODE_ENV=production LOG_LEVEL=warn, RATE_LIMIT_SCALE=${RATE_LIMIT_SCALE} and MAX_CONNECTIONS_PER_IP=0 (rate limits and the per-address connection cap lifted: all the load comes from 127.0.0.1)`,
  );
  const shopEnv = {
    HOME: os.homedir(),
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    CLIENT_DIR: built.clientDir,
    RATE_LIMIT_SCALE,
    MAX_CONNECTIONS_PER_IP: '0',
    ...database.env,
  };
  shop = await startServer(built.mainJs, shopEnv, '/readyz');
  bare = await startServer(path.join(here, 'load/bare-server.mjs'), { NODE_ENV: 'production' }, '/');
  const firstStart = memoryPhases(shop.pid);
  firstStart.mark('first start-up (creates the database)');

  const seedStart = performance.now();
  const customer = await seedCustomer(shop.url, dataDir, ORDERS);
  const cookie = { cookie: customer.cookie };
  firstStart.mark('seeding');
  console.log(
    `seeded through the API in ${((performance.now() - seedStart) / 1000).toFixed(1)} s: a verified customer, one model, ${ORDERS} orders paid on the simulator`,
  );
  // A shop creates its database once; on the embedded default that first start holds PGlite's initdb memory
  // (about 500 MB) for the life of the process. Measured as a shop runs every day after: started again.
  console.log(
    `first start-up and seeding, peak memory: ${firstStart
      .phases()
      .map(([phase, bytes]) => `${phase} ${mb(bytes)}`)
      .join(', ')}`,
  );
  await shop.stop();
  shop = await startServer(built.mainJs, shopEnv, '/readyz');
  const memory = memoryPhases(shop.pid);
  memory.mark('start-up');
  console.log("started again on the same data: the figures below are this process's\n");

  const targets: Target[] = [
    { name: 'GET /api/check_session.php', url: `${shop.url}/api/check_session.php`, headers: cookie },
    { name: `GET /api/get_orders.php (${ORDERS})`, url: `${shop.url}/api/get_orders.php`, headers: cookie },
    {
      name: 'POST /api/quote',
      url: `${shop.url}/api/quote`,
      method: 'POST',
      headers: { ...cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ modelId: customer.modelId, color: '#007bff', strength: 3, quantity: 2 }),
    },
    { name: 'GET / (home page)', url: `${shop.url}/`, headers: { accept: 'text/html' } },
  ];
  const baseline: Target = { name: 'baseline: bare Fastify GET /', url: `${bare.url}/` };

  // Each route answers what it should before it is timed: a load of wrong answers measures nothing.
  const checks: [Target, (status: number, type: string, body: string) => boolean][] = [
    [targets[0]!, (s, _t, b) => s === 200 && JSON.parse(b).loggedIn === true],
    [targets[1]!, (s, _t, b) => s === 200 && (JSON.parse(b) as unknown[]).length === ORDERS],
    [targets[2]!, (s, _t, b) => s === 200 && typeof JSON.parse(b).unitPrice === 'number'],
    [targets[3]!, (s, t, b) => s === 200 && t.startsWith('text/html') && b.includes('<div id="root"')],
  ];
  for (const [t, ok] of checks) {
    const res = await fetch(t.url, { method: t.method ?? 'GET', headers: t.headers, body: t.body });
    const body = await res.text();
    if (!ok(res.status, res.headers.get('content-type') ?? '', body))
      throw new Error(`${t.name} answered ${res.status}: ${body.slice(0, 300)}`);
  }

  const tally = (f: Figures) => {
    if (f.errors > 0 || f.non2xx > 0)
      problems.push(`${f.name} at ${f.connections} connections: ${f.errors} errors, statuses ${f.statuses}`);
    return f;
  };

  // Warm-up (JIT, pools, caches), untimed.
  for (const t of [baseline, ...targets]) await load(t, 10, 1).done;

  console.log(
    `autocannon, ${SECONDS} s per case, each connection asking again as soon as it is answered; ratios against the baseline at the same connections (latencies in whole ms: a baseline p99 of 0 counts as 1)`,
  );
  console.log(TABLE_HEADER);
  for (const connections of CONNECTIONS) {
    const base = tally(await load(baseline, connections, SECONDS).done);
    console.log(row(base));
    for (const t of targets) console.log(row(tally(await load(t, connections, SECONDS).done), base));
  }
  memory.mark('loads');

  // Ten uploads at once while every route above is asked at a steady rate (and /healthz by the probe).
  const bodies = writeBodies(workDir, UPLOADS);
  console.log(
    `\n${UPLOADS} uploads of ${mb(bodies.bytes)} (binary STL, ${bodies.triangles} triangles, each a new browser) at once, while each route above is asked ${RATE_DURING_UPLOADS} times a second (10 connections):`,
  );
  const probe = startProbe(path.join(here, 'load/probe.mjs'), `${shop.url}/healthz`);
  // Each route also asked every 20 ms from a process of its own: autocannon shares this process with the
  // upload clients, and what it sees here includes this process's own delays (its figures are shown too).
  const routeProbes = targets.map((t) => ({
    name: t.name,
    probe: startProbe(path.join(here, 'load/probe.mjs'), t.url, {
      method: t.method ?? 'GET',
      headers: t.headers ?? {},
      ...(t.body ? { body: t.body } : {}),
    }),
  }));
  const loads = targets.map((t) => load(t, 10, 3600, RATE_DURING_UPLOADS));
  const uploads = await uploadAll(shop.url, workDir, bodies);
  for (const l of loads) l.stop();
  const during = await Promise.all(loads.map((l) => l.done));
  const loop = await probe.stop();
  const probed = [];
  for (const r of routeProbes) probed.push({ name: r.name, figures: await r.probe.stop() });
  memory.mark('uploads');
  const peak = Math.max(...memory.phases().map(([, bytes]) => bytes));

  for (const [i, u] of uploads.entries()) {
    console.log(
      `  upload ${i + 1}: ${u.status || 'no answer'} in ${u.answeredS.toFixed(1)} s, ${u.triangles ?? '-'} triangles, view.glb ${u.view || '-'} at ${u.viewS.toFixed(1)} s${u.error ? `: ${u.error}` : ''}`,
    );
    if (!u.ok) problems.push(`upload ${i + 1}: ${u.error}`);
  }
  const analysed = uploads.filter((u) => u.ok).length;
  console.log(
    'as autocannon in the bench process sees them (its own loop is busy with the ten upload clients):',
  );
  console.log(TABLE_HEADER);
  for (const f of during) console.log(row(tally(f)));
  console.log('as a probe process of its own sees each (one request every 20 ms):');
  for (const { name, figures } of probed) {
    console.log(
      `  ${name.padEnd(30)} ${String(figures.count).padStart(5)} answers  p50 ${figures.p50.toFixed(1)} ms  p99 ${figures.p99.toFixed(1)} ms  max ${figures.max.toFixed(1)} ms  errors ${figures.errors}`,
    );
    if (figures.errors > 0) problems.push(`${name} probe: ${figures.errors} failed requests`);
  }
  const worstP99 = Math.max(...probed.map((p) => p.figures.p99));
  const worstInBench = Math.max(...during.map((f) => f.p99));
  if (loop.errors > 0) problems.push(`/healthz probe: ${loop.errors} failed requests`);

  console.log('\ntargets:');
  console.log(
    `  all ${UPLOADS} uploads 201 and analysed (view mesh made): ${analysed}/${UPLOADS}: ${verdict(analysed === UPLOADS)}`,
  );
  console.log(
    `  server peak memory < 1 GB: ${mb(peak)} (VmHWM per phase${memory.resets() ? '' : ', each since the start: the kernel refused the reset'}: ${memory
      .phases()
      .map(([phase, bytes]) => `${phase} ${mb(bytes)}`)
      .join(', ')}): ${verdict(peak < GB)}`,
  );
  console.log(
    `  other requests' p99 < 200 ms during the uploads: worst route ${worstP99.toFixed(0)} ms, each asked from a probe process (${worstInBench.toFixed(0)} ms as autocannon sees it from the bench process): ${verdict(worstP99 < 200)}`,
  );
  console.log(
    `  event loop delay, measured from outside (the shop exposes no loop metric): GET /healthz every 20 ms from a probe process during the uploads, ${loop.count} answers: p50 ${loop.p50.toFixed(1)} ms, p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms (the probe's own loop delay at worst: ${loop.ownMax.toFixed(0)} ms)`,
  );
  const noErrors = problems.length === 0;
  console.log(`  no errors or non-2xx answers: ${verdict(noErrors)}`);
  for (const p of problems) console.log(`    ${p}`);
  process.exitCode = noErrors ? 0 : 1;
} catch (err) {
  console.error('the load bench failed:', err);
  if (shop) console.error(`the shop's last output:\n${shop.output()}`);
  process.exitCode = 1;
} finally {
  await shop?.stop();
  await bare?.stop();
  await database?.drop();
  built.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(workDir, { recursive: true, force: true });
}
