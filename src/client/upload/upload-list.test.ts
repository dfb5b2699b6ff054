import { describe, expect, it } from 'vitest';
import { type Entry, entriesToStart, fileBytesSent, uploadReducer } from './upload-list.ts';

const file = (name: string, size = 100) => new File([new Uint8Array(size)], name);

function add(names: string[]): Entry[] {
  return uploadReducer([], {
    type: 'add',
    files: names.map((n) => file(n)),
    keys: names.map((_, i) => `k${i}`),
  });
}

describe('uploadReducer', () => {
  it('queues good files and rejects others at once, without a request', () => {
    const entries = add(['a.stl', 'b.txt']);
    expect(entries.map((e) => [e.status, e.error])).toEqual([
      ['queued', ''],
      ['rejected', 'Only .stl, .obj and .3mf files are accepted.'],
    ]);
  });

  it('goes from uploading to analysing, and leaves the list with its model', () => {
    let entries = add(['a.stl']);
    entries = uploadReducer(entries, { type: 'start', key: 'k0' });
    entries = uploadReducer(entries, { type: 'progress', key: 'k0', sent: 40 });
    expect(entries[0]).toMatchObject({ status: 'uploading', sent: 40 });
    entries = uploadReducer(entries, { type: 'progress', key: 'k0', sent: 4000 });
    expect(entries[0]!.sent).toBe(100);
    entries = uploadReducer(entries, { type: 'sent', key: 'k0' });
    expect(entries[0]!.status).toBe('analysing');
    entries = uploadReducer(entries, { type: 'remove', key: 'k0' });
    expect(entries).toEqual([]);
  });

  it('keeps the server error, retries and removes', () => {
    let entries = add(['a.stl', 'b.stl']);
    entries = uploadReducer(entries, { type: 'start', key: 'k0' });
    entries = uploadReducer(entries, {
      type: 'failed',
      key: 'k0',
      error: 'Too many uploads.',
      retryable: true,
    });
    expect(entries[0]).toMatchObject({ status: 'error', error: 'Too many uploads.' });
    entries = uploadReducer(entries, { type: 'retry', key: 'k0' });
    expect(entries[0]).toMatchObject({ status: 'queued', error: '' });
    entries = uploadReducer(entries, { type: 'remove', key: 'k0' });
    expect(entries.map((e) => e.key)).toEqual(['k1']);
  });

  it('shows a refused model as rejected: retrying cannot help', () => {
    let entries = uploadReducer(add(['flat.stl']), { type: 'start', key: 'k0' });
    entries = uploadReducer(entries, { type: 'failed', key: 'k0', error: 'No volume.', retryable: false });
    expect(entries[0]).toMatchObject({ status: 'rejected', error: 'No volume.' });
    expect(uploadReducer(entries, { type: 'retry', key: 'k0' })[0]!.status).toBe('rejected');
  });

  it('does not retry a rejected file', () => {
    const entries = uploadReducer(add(['b.txt']), { type: 'retry', key: 'k0' });
    expect(entries[0]!.status).toBe('rejected');
  });
});

describe('entriesToStart', () => {
  it('runs at most two uploads at once', () => {
    let entries = add(['a.stl', 'b.stl', 'c.stl', 'd.txt']);
    expect(entriesToStart(entries).map((e) => e.key)).toEqual(['k0', 'k1']);
    expect(entriesToStart(entries, 1).map((e) => e.key)).toEqual(['k0']);
    entries = uploadReducer(entries, { type: 'start', key: 'k0' });
    entries = uploadReducer(entries, { type: 'start', key: 'k1' });
    expect(entriesToStart(entries)).toEqual([]);
    entries = uploadReducer(entries, { type: 'remove', key: 'k0' });
    expect(entriesToStart(entries).map((e) => e.key)).toEqual(['k2']);
  });
});

describe('fileBytesSent', () => {
  it('scales the multipart body progress to the file', () => {
    expect(fileBytesSent(500, 1000, 900)).toBe(450);
    expect(fileBytesSent(1000, 1000, 900)).toBe(900);
    expect(fileBytesSent(5, 0, 900)).toBe(0);
  });
});
