import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// Writes a stream to a new file. When it fails, the file is gone by the time the promise rejects.
// With fs.createWriteStream(path), the file is opened in the background: a source that fails at once (a
// request cut off) could make the pipeline reject, and the caller remove the file, before that open had
// created it, leaving an empty file behind until the cleanup job found it stale. Here the file is open before a byte is piped.

export type StreamToFileOptions = {
  exclusive?: boolean;
  /**
   * Told how many bytes are in the file after each write lands (an upload's analysis reads the file as it
   * grows, see upload-stream.ts).
   */
  onWritten?: (bytesSoFar: number) => void;
};

/** The write stream over an open handle; with onWritten, one that counts each landed write. */
function writeStream(handle: fsp.FileHandle, file: string, onWritten?: (bytes: number) => void) {
  if (!onWritten) return handle.createWriteStream();
  let total = 0;
  const landed = (n: number) => {
    total += n;
    onWritten(total);
  };
  // The stream's own write functions, wrapped: Node's WriteStream takes them as its `fs` option.
  const counting = {
    open: fs.open,
    write(
      fd: number,
      buffer: Buffer,
      offset: number,
      length: number,
      position: number | null,
      done: (err: NodeJS.ErrnoException | null, written: number, buffer: Buffer) => void,
    ) {
      fs.write(fd, buffer, offset, length, position, (err, written, buf) => {
        if (!err) landed(written);
        done(err, written, buf);
      });
    },
    writev(
      fd: number,
      buffers: NodeJS.ArrayBufferView[],
      position: number | null,
      done: (err: NodeJS.ErrnoException | null, written: number, buffers: NodeJS.ArrayBufferView[]) => void,
    ) {
      fs.writev(fd, buffers, position, (err, written, bufs) => {
        if (!err) landed(written);
        done(err, written, bufs);
      });
    },
    // The handle owns the descriptor: it closes it.
    close(_fd: number, done: (err: NodeJS.ErrnoException | null) => void) {
      handle.close().then(
        () => done(null),
        (err: NodeJS.ErrnoException) => done(err),
      );
    },
  };
  return fs.createWriteStream(file, { fd: handle.fd, fs: counting } as Parameters<
    typeof fs.createWriteStream
  >[1]);
}

export async function streamToFile(source: Readable, file: string, opts: StreamToFileOptions = {}) {
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
  const out = writeStream(handle, file, opts.onWritten);
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
