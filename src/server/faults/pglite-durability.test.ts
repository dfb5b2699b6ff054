import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openPglite } from '../db/client.ts';

// What the embedded default (PGlite in DATA_DIR/db) promises about a crash, measured at the file system:
// each commit is written to the operating system before the query answers, so a killed process loses
// nothing (sigkill.test.ts shows it end to end). It is never fsync'd: PGlite's file system layer has no
// fsync, so a power cut or a kernel crash may lose the last commits (docs/deploy.md).

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-pglite-sync-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
});

describe('PGlite on a directory', () => {
  it('writes each commit to the OS before answering, and keeps it across a reopen', async () => {
    const database = await openPglite({ dataDir: path.join(dir, 'db'), migrate: false });
    await database.pglite.query('create table durable (n int)');
    const writes = vi.spyOn(fs, 'writeSync');
    const syncs = [vi.spyOn(fs, 'fsyncSync'), vi.spyOn(fs, 'fdatasyncSync')];
    for (let n = 1; n <= 3; n++) {
      const before = writes.mock.calls.length;
      await database.pglite.query('insert into durable values ($1)', [n]);
      // In the kernel's hands when the insert answers: a SIGKILL now loses nothing.
      expect(writes.mock.calls.length, `commit ${n}`).toBeGreaterThan(before);
    }
    // If this starts failing, PGlite syncs now: drop the power-cut caveat from docs/deploy.md.
    expect(syncs.map((s) => s.mock.calls.length)).toEqual([0, 0]);
    vi.restoreAllMocks();
    await database.close();

    const reopened = await openPglite({ dataDir: path.join(dir, 'db'), migrate: false });
    const { rows } = await reopened.pglite.query<{ n: number }>('select n from durable order by n');
    expect(rows.map((r) => r.n)).toEqual([1, 2, 3]);
    await reopened.close();
  });
});
