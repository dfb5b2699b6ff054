// Run by keep-shapes.test.ts in a child process (node --expose-gc --trace-deopt), with the directory of the
// files it made: analyses of every format as the analysis threads make them, a full collection before each, as
// a worker idle between uploads sees them. V8 prints a line for each piece of optimized code it throws away;
// the test reads which were thrown away because objects they checked had died ("weak objects"), and looks
// for the analyses' own functions among them (the module loader's may be there too). A control class that
// nothing keeps shows that the trace catches such a loss at all.

import fs from 'node:fs';
import path from 'node:path';
import { INLINE_EXTRAS_TRIANGLES } from '../../server/models/inline-extras.ts';
import { analyzeMesh } from '../analysis.ts';
import { analyse3mf, read3mf } from '../threemf/read.ts';

const gc = (globalThis as unknown as { gc: () => void }).gc;

class Control {
  sum = 0;
  controlSum(values: Float64Array): number {
    for (let k = 0; k < values.length; k++) this.sum += values[k]! * 0.5;
    return this.sum;
  }
}

const values = new Float64Array(4096).fill(1.5);
for (let run = 0; run < 5; run++) {
  for (let k = 0; k < 200; k++) new Control().controlSum(values);
  gc();
}

const dir = process.argv[2]!;
const read = (name: string) => new Uint8Array(fs.readFileSync(path.join(dir, name)));
const files: [Uint8Array, 'stl' | 'obj'][] = [
  [read('binary.stl'), 'stl'],
  [read('ascii.stl'), 'stl'],
  [read('sphere.obj'), 'obj'],
];
const threeMf = read('sphere.3mf');
for (let run = 0; run < 4; run++) {
  for (const [bytes, extension] of files) {
    gc();
    analyzeMesh(bytes, extension, { keepMesh: true, collectTriangles: INLINE_EXTRAS_TRIANGLES });
  }
  gc();
  const model = await read3mf(threeMf);
  gc();
  analyse3mf(model, { collectTriangles: INLINE_EXTRAS_TRIANGLES });
}
