// The built server the load bench runs: dist/ brought up to date and copied to a directory of its own, both
// under /tmp/e2e.lock (which every build in this checkout takes), so that another build replacing dist/ while
// the bench runs cannot pull a file (a worker, a migration) from under the server.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type BuiltServer = { mainJs: string; clientDir: string; note: string; remove(): void };

// Run under the lock: scripts/build-once.mjs builds only when the sources' fingerprint is not dist/'s stamp.
const script = `
import fs from 'node:fs';
import { ensureBuilt } from './scripts/build-once.mjs';
const start = performance.now();
const complete = () =>
  ['server/main.js', 'server/db/migrations/meta/_journal.json', 'client/index.html'].every((f) =>
    fs.existsSync('dist/' + f),
  );
// A build that stopped halfway (npm run build on a tree that does not compile) leaves the stamp: rebuild.
if (!complete()) fs.rmSync('dist/.build-stamp', { force: true });
let note = 'dist/ was the build of the current sources';
try {
  if (await ensureBuilt(process.cwd(), (m) => console.log('  ' + m)))
    note = 'dist/ was built for this run in ' + ((performance.now() - start) / 1000).toFixed(0) + ' s';
} catch (err) {
  if (!complete()) throw err;
  note = 'THE BUILD FAILED (' + err.message + '): measuring the previous build in dist/';
}
fs.cpSync('dist', process.argv[1], { recursive: true });
fs.writeFileSync(process.argv[2], note);
`;

/** Builds dist/ when stale, then copies it out; throws when there is no server to measure. */
export function builtServer(root: string): BuiltServer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-bench-load-dist-'));
  const noteFile = path.join(dir, 'note.txt');
  const start = performance.now();
  const r = spawnSync(
    'flock',
    [
      '/tmp/e2e.lock',
      process.execPath,
      '--input-type=module',
      '-e',
      script,
      path.join(dir, 'dist'),
      noteFile,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (r.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error('the build failed (above) and dist/ holds no complete earlier build to measure');
  }
  const waited = (performance.now() - start) / 1000;
  // The compiled server is ES modules importing the checkout's packages.
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  return {
    mainJs: path.join(dir, 'dist/server/main.js'),
    clientDir: path.join(dir, 'dist/client'),
    note: `${fs.readFileSync(noteFile, 'utf8')} (${waited.toFixed(0)} s with the wait for /tmp/e2e.lock)`,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
