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

/** mkdir is atomic: whoever creates the lock directory builds. A lock left by a dead process is taken over. */
async function withLock(lockDir, fn) {
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      // The lock looked at, then its owner: the lock may be released and taken by another start in between,
      // and a dead owner read from the old one must not remove the new one (inode checked again below).
      const looked = fs.statSync(lockDir, { throwIfNoEntry: false });
      if (!looked) continue;
      let owner = null;
      try {
        owner = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
      } catch {}
      const stale = (owner && !alive(owner)) || Date.now() - looked.mtimeMs > LOCK_STALE_MS;
      const still = fs.statSync(lockDir, { throwIfNoEntry: false });
      if (stale && still?.ino === looked.ino)
        fs.rmSync(lockDir, { recursive: true, force: true, maxRetries: 3 });
      else await sleep(250);
    }
  }
  fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true, maxRetries: 3 });
  }
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
