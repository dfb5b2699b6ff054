// The piscina worker's entry: plain JavaScript, so it loads in any worker thread. A worker thread does not
// get the loader hooks of the process's `--import tsx` (Node 20), nor vitest's, so it registers tsx's
// loader itself, then loads the TypeScript worker.
const { register } = await import('tsx/esm/api');
register();
const worker = await import('./analyze-worker.ts');

export default worker.default;
export const buildExtras = worker.buildExtras;
export const warm = worker.warm;
