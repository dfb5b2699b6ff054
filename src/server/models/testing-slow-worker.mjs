// Tests only (analysis-pool.test.ts): a worker whose tasks take `task.sleepMs` and answer nothing of a model,
// to see the time limits the pool gives each kind of task.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export default async function analyzeSlowly(task) {
  await sleep(task.sleepMs);
  return { ok: false, code: 'empty', message: 'slept' };
}

export async function buildExtras(task) {
  await sleep(task.sleepMs);
  return { png: null, previewError: null, view: null, viewError: 'slept' };
}
