// Tests only (upload-stream.test.ts): the analysis worker, except that a task following an upload ends its
// thread once the first megabyte has landed, as a crash would. Every other task is the real worker's.
const { register } = await import('tsx/esm/api');
register();
const worker = await import('./analyze-worker.ts');

export default function analyzeOrCrash(task) {
  if (!task.follow) return worker.default(task);
  const progress = new Int32Array(task.follow.progress);
  // Slots as in follow-file.ts: bytes written, state, changes.
  while (Atomics.load(progress, 0) < 1024 * 1024 && Atomics.load(progress, 1) === 0) {
    Atomics.wait(progress, 2, Atomics.load(progress, 2), 50);
  }
  process.exit(1);
}
export const buildExtras = worker.buildExtras;
export const warm = worker.warm;
