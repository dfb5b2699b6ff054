import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// Writes a stream to a new file. When it fails, the file is gone by the time the promise rejects.
// With fs.createWriteStream(path), the file is opened in the background: a source that fails at once (a
// request cut off) could make the pipeline reject, and the caller remove the file, before that open had
// created it, leaving an empty file behind until the cleanup job found it stale. Here the file is open before a byte is piped.

export async function streamToFile(source: Readable, file: string, opts: { exclusive?: boolean } = {}) {
  // The source may fail while the file opens (a request cut off meanwhile): its error must wait for the
  // pipeline below, which reports a stream that failed already, instead of being thrown as uncaught.
  const hold = () => {};
  source.on('error', hold);
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, opts.exclusive ? 'wx' : 'w');
  } catch (err) {
    source.destroy(); // nobody will read it: let go of what it holds (a file handle, a socket)
    throw err;
  } finally {
    source.off('error', hold);
  }
  const out = handle.createWriteStream();
  try {
    await pipeline(source, out);
  } catch (err) {
    // The stream closes its handle a moment after the pipeline fails; removing the file after that works
    // on every platform (Windows refuses to remove an open file).
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    await fsp.rm(file, { force: true });
    throw err;
  }
}
