import { describe, expect, it } from 'vitest';
import { FairQueue, QueueFullError, type TaskKind } from './fair-queue.ts';

const tick = () => new Promise((r) => setImmediate(r));

/** Tasks of either kind that note, by name, the order in which they got a thread, and keep their release. */
function recorder(q: FairQueue) {
  const order: string[] = [];
  const releases: (() => void)[] = [];
  const start = (name: string, client: string, kind: TaskKind) =>
    q.acquire(client, kind).then((release) => {
      order.push(name);
      releases.push(release);
    });
  return { order, releases, start };
}

describe('FairQueue', () => {
  it('serves waiting clients in turn: a busy client waits while another has a task waiting', async () => {
    const q = new FairQueue(1, 100);
    const order: string[] = [];
    const releases: (() => void)[] = [];
    const start = (client: string) =>
      q.acquire(client).then((release) => {
        order.push(client);
        releases.push(release);
      });
    // One address sends five models, another one model right after.
    const all = [start('a'), start('a'), start('a'), start('a'), start('a'), start('b')];
    await tick();
    expect(order).toEqual(['a']);
    releases.shift()!();
    await tick();
    expect(order).toEqual(['a', 'b']);
    while (releases.length > 0) {
      releases.shift()!();
      await tick();
    }
    await Promise.all(all);
    expect(order).toEqual(['a', 'b', 'a', 'a', 'a', 'a']);
  });

  it('never leaves a thread idle: a lone client may use every free thread', async () => {
    const q = new FairQueue(2, 100);
    const started: string[] = [];
    for (let i = 0; i < 3; i++) void q.acquire('a').then(() => started.push('a'));
    await tick();
    expect(started).toEqual(['a', 'a']);
    expect(q.queued).toBe(1);
  });

  it('refuses at once when the waiting room is full, and takes tasks again once there is room', async () => {
    const q = new FairQueue(1, 2);
    const first = await q.acquire('a');
    const waiting = [q.acquire('b'), q.acquire('c')];
    await expect(q.acquire('d')).rejects.toBeInstanceOf(QueueFullError);
    // The refused model is not counted among those waiting for their analysis.
    expect(q.queuedAnalyses).toBe(2);
    first();
    (await waiting[0]!)();
    (await waiting[1]!)();
    const again = await q.acquire('d');
    again();
    again(); // a second release is ignored
    expect(q.queued).toBe(0);
  });

  it('tryAcquire: a thread only when one is free and nobody waits; it counts like any other', async () => {
    const q = new FairQueue(2, 100);
    const first = q.tryAcquire('a');
    expect(first).toBeTypeOf('function');
    const second = q.tryAcquire('b');
    expect(second).toBeTypeOf('function');
    // Both threads taken: none now, and a waiting model is not overtaken.
    expect(q.tryAcquire('c')).toBeNull();
    let waited = false;
    const waiting = q.acquire('d').then((release) => {
      waited = true;
      return release;
    });
    expect(q.queued).toBe(1);
    first!();
    await tick();
    expect(waited).toBe(true);
    expect(q.tryAcquire('c')).toBeNull();
    second!();
    (await waiting)();
    const again = q.tryAcquire('c');
    expect(again).toBeTypeOf('function');
    again!();
  });

  it('serves prices first: a waiting analysis goes before extras jobs that waited longer', async () => {
    const q = new FairQueue(1, 100);
    const { order, releases, start } = recorder(q);
    const all = [
      start('upload 1', 'a', 'analysis'),
      start('view of 1', 'a', 'extras'),
      start('preview of 1', 'b', 'extras'),
      start('upload 2', 'a', 'analysis'),
      start('upload 3', 'c', 'analysis'),
    ];
    await tick();
    // The shared count the upload tasks read: two analyses wait (the extras jobs are not counted).
    expect(q.queuedAnalyses).toBe(2);
    expect(Atomics.load(q.analysesWaiting, 0)).toBe(2);
    expect(q.queued).toBe(4);
    while (releases.length > 0) {
      releases.shift()!();
      await tick();
    }
    await Promise.all(all);
    // Analyses by client in turn (c has nothing running), then the extras jobs by client in turn.
    expect(order).toEqual(['upload 1', 'upload 3', 'upload 2', 'preview of 1', 'view of 1']);
    expect(q.queuedAnalyses).toBe(0);
  });

  it('lets an extras job that waited its patience out go before the next analysis', async () => {
    const q = new FairQueue(1, 100, 50);
    const { order, releases, start } = recorder(q);
    const all = [start('upload 1', 'a', 'analysis'), start('view of 0', 'b', 'extras')];
    await tick();
    await new Promise((r) => setTimeout(r, 60));
    all.push(start('upload 2', 'c', 'analysis'));
    await tick();
    while (releases.length > 0) {
      releases.shift()!();
      await tick();
    }
    await Promise.all(all);
    expect(order).toEqual(['upload 1', 'view of 0', 'upload 2']);
  });
});
