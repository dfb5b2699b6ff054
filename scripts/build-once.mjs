// The build `npm start` runs before the server: only when the sources changed since dist/ was built, and
// never in place. Several instances started at once from one checkout (a process manager's N copies, a
// compose file's replicas) take turns on a lock; the first builds into a directory of its own and swaps it
// in with renames, the others find it built. dist/ is never half written, so an instance starting or
// running beside a build never reads a missing file (such as the migrations' meta/_journal.json).
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What the build reads: any change here (a file added, removed or edited) means a new build. */
const INPUTS = [
  'src',
  'scripts/build-server.mjs',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.server.json',
  'package.json',
  'package-lock.json',
];
const STAMP = '.build-stamp';
const LOCK_STALE_MS = 15 * 60_000;

function filesUnder(root, rel) {
  const full = path.join(root, rel);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [rel];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .flatMap((e) => filesUnder(root, path.join(rel, e.name)))
    .sort();
}

/** A hash of the build's inputs: their paths and contents. */
export function fingerprint(root) {
  const hash = crypto.createHash('sha256');
  for (const rel of INPUTS.flatMap((r) => filesUnder(root, r))) {
    hash.update(`${rel.split(path.sep).join('/')}\0`);
    hash.update(fs.readFileSync(path.join(root, rel)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

export function builtFingerprint(distDir) {
  try {
    return fs.readFileSync(path.join(distDir, STAMP), 'utf8').trim();
  } catch {
    return null;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** The lock's owner: its pid and a token of its own (a lock of an older version holds the pid alone). */
function readOwner(dir) {
  try {
    const [pid, token = ''] = fs.readFileSync(path.join(dir, 'pid'), 'utf8').split('\n');
    return { pid: Number(pid), token };
  } catch {
    return null;
  }
}

/**
 * The lock is a directory that appears whole: it is written under a name of its own and renamed into place,
 * which fails while another lock (never empty) is there. Nobody writes into `dist.lock` or removes it but
 * whoever moved it away under a name of their own, so two starts can never race on its contents (CI once saw
 * ENOTEMPTY when one start removed a dead owner's lock while the other was taking it).
 */
function tryLock(lockDir, token) {
  const mine = `${lockDir}.${token}`;
  fs.mkdirSync(mine);
  fs.writeFileSync(path.join(mine, 'pid'), `${process.pid}\n${token}`);
  try {
    fs.renameSync(mine, lockDir);
    return true;
  } catch (err) {
    fs.rmSync(mine, { recursive: true, force: true });
    if (err.code === 'ENOTEMPTY' || err.code === 'EEXIST') return false;
    throw err;
  }
}

/** A break is a few renames: a break mutex older than this was left by a start killed mid-break. */
const BREAK_STALE_MS = 10_000;

/**
 * Breaks a lock whose owner died (or that is older than any build), one start at a time: under a mutex of
 * its own (`dist.lock.break`), the lock is removed only if it is still the one judged dead. Only a breaker
 * removes another's lock and breakers take turns, so between that look and the removal the lock cannot
 * change: its owner is dead, and a new lock cannot replace a lock that is there. Whether it broke the lock.
 * (Two breakers at once again only if one was killed mid-break and its mutex is taken over as stale.)
 */
function breakLock(lockDir, judged, token) {
  const mutex = `${lockDir}.break`;
  try {
    fs.mkdirSync(mutex);
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
    const held = fs.statSync(mutex, { throwIfNoEntry: false });
    if (held && Date.now() - held.mtimeMs > BREAK_STALE_MS)
      fs.rmSync(mutex, { recursive: true, force: true });
    return false;
  }
  try {
    const now = readOwner(lockDir);
    if (now?.pid !== judged?.pid || now?.token !== judged?.token) return false;
    // Moved away before it is removed (here and in release): removed in place it would be empty for a moment,
    // and a lock renamed onto an empty directory replaces it, to be removed in its turn.
    const away = `${lockDir}.broken-${token}`;
    fs.renameSync(lockDir, away);
    fs.rmSync(away, { recursive: true, force: true });
    return true;
  } finally {
    fs.rmSync(mutex, { recursive: true, force: true });
  }
}

export async function withLock(lockDir, fn) {
  const token = `${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
  while (!tryLock(lockDir, token)) {
    const looked = fs.statSync(lockDir, { throwIfNoEntry: false });
    if (!looked) continue;
    const owner = readOwner(lockDir);
    const stale = (owner?.pid && !alive(owner.pid)) || Date.now() - looked.mtimeMs > LOCK_STALE_MS;
    // Another start breaking it: a moment, not a quarter of a second.
    if (!(stale && breakLock(lockDir, owner, token))) await sleep(stale ? 10 : 250);
  }
  try {
    return await fn();
  } finally {
    release(lockDir, token);
  }
}

function release(lockDir, token) {
  // Breakers move only a dead owner's lock, or one older than any build: unless this build ran that long,
  // the lock is still ours.
  if (readOwner(lockDir)?.token !== token) return;
  const gone = `${lockDir}.released-${token}`;
  try {
    fs.renameSync(lockDir, gone);
  } catch (err) {
    if (err.code === 'ENOENT') return;
    throw err;
  }
  fs.rmSync(gone, { recursive: true, force: true });
}

function run(root, args) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`the build failed: node ${args.join(' ')} exited with ${r.status}`);
}

/**
 * Makes `<root>/dist` the build of the current sources, building only if it is not already. Answers
 * whether this call built.
 */
export async function ensureBuilt(root, log = console.log) {
  const dist = path.join(root, 'dist');
  const wanted = fingerprint(root);
  if (builtFingerprint(dist) === wanted) return false;
  return withLock(path.join(root, 'dist.lock'), async () => {
    // Another instance may have built it while this one waited.
    if (builtFingerprint(dist) === wanted) return false;
    log('The sources changed since the last build: building the client and the server…');
    const next = path.join(root, `dist.next-${process.pid}`);
    const old = path.join(root, `dist.old-${process.pid}`);
    fs.rmSync(next, { recursive: true, force: true });
    try {
      run(root, [
        'node_modules/vite/bin/vite.js',
        'build',
        '--logLevel',
        'warn',
        '--outDir',
        path.join(next, 'client'),
      ]);
      run(root, ['scripts/build-server.mjs', next]);
      fs.writeFileSync(path.join(next, STAMP), `${wanted}\n`);
    } catch (err) {
      fs.rmSync(next, { recursive: true, force: true });
      throw err;
    }
    if (fs.existsSync(dist)) fs.renameSync(dist, old);
    fs.renameSync(next, dist);
    fs.rmSync(old, { recursive: true, force: true });
    log('Built.');
    return true;
  });
}
