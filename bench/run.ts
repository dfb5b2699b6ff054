// `npm run bench`: runs each benchmark in its own warm process, one after the other (they measure memory too).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const only = process.argv.slice(2);
const all = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
// `npm run bench load` runs load.bench.ts alone (not upload.bench.ts too): a bench's exact name first, else
// every bench whose file name holds the word.
const files = all.filter(
  (f) =>
    only.length === 0 ||
    only.some((o) => (all.includes(`${o}.bench.ts`) ? f === `${o}.bench.ts` : f.includes(o))),
);

let failed = 0;
for (const file of files) {
  console.log(`\n### ${file}\n`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(here, file)], {
    stdio: 'inherit',
  });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
