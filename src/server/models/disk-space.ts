import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { LogThrottle } from '../logger.ts';
import { HttpError } from '../plugins/error-handler.ts';

// Uploads are refused with 507 while storing one would leave the data disk with less than
// UPLOAD_MIN_FREE_MB free: a full disk would break the database, the logs and every other write, and a
// half-written file helps nobody. Checked before the file is read, every few MiB while it streams in, and
// a write that fails for lack of room (ENOSPC) gets the same answer.

export const DISK_FULL = 'The shop cannot store more files right now. Please try again later.';

/** Bytes free to unprivileged writers on the file system holding `dir`. */
export type FreeBytes = (dir: string) => Promise<number>;

/** fs.statfs of `dir`, or of its nearest existing parent (the files directory is made on first use). */
export async function statfsFreeBytes(dir: string): Promise<number> {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    try {
      // Looked up at each call, so tests can stand in a full disk (vi.spyOn(fsp, 'statfs')).
      const s = await fsp.statfs(at);
      return Number(s.bavail) * Number(s.bsize);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || path.dirname(at) === at) throw err;
    }
  }
}

export function isNoSpaceError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

export type DiskSpaceOptions = {
  /** Where uploads go: the temp directory and the files directory (one disk or two). */
  dirs: string[];
  minFreeBytes: number;
  freeBytes?: FreeBytes;
  now: () => Date;
};

export class DiskSpaceGuard {
  private readonly freeBytes: FreeBytes;
  /** Refusals and unreadable disks: one log line a minute each at most, with a count. */
  private readonly refusals: LogThrottle;
  private readonly unreadable: LogThrottle;

  constructor(private readonly options: DiskSpaceOptions) {
    this.freeBytes = options.freeBytes ?? statfsFreeBytes;
    const now = () => options.now().getTime();
    this.refusals = new LogThrottle(now);
    this.unreadable = new LogThrottle(now);
  }

  /** Throws the 507 when writing `incomingBytes` more would leave less than the minimum free. */
  async check(incomingBytes: number, log: FastifyBaseLogger): Promise<void> {
    for (const dir of this.options.dirs) {
      let free: number;
      try {
        free = await this.freeBytes(dir);
      } catch (err) {
        // A safety net, not a gate: if a disk cannot be asked, the upload goes on (a real ENOSPC still
        // 507s), and the other directories are still checked.
        const occurrences = this.unreadable.take();
        if (occurrences > 0)
          log.warn(
            { err, dir, occurrences },
            'could not read the free disk space; upload accepted unchecked',
          );
        continue;
      }
      if (free - incomingBytes < this.options.minFreeBytes) {
        throw this.refuse(log, { dir, freeBytes: free, incomingBytes });
      }
    }
  }

  /**
   * The 507 for one refused upload, logged for the shop owner: the first refusal at once, then at most one
   * line a minute with the number refused meanwhile (a flood must not fill the disk with logs too).
   */
  refuse(log: FastifyBaseLogger, details: Record<string, unknown> = {}): HttpError {
    const refusedUploads = this.refusals.take();
    if (refusedUploads > 0) {
      log.warn(
        { ...details, minFreeBytes: this.options.minFreeBytes, refusedUploads },
        'upload refused: the disk is almost full (free some space or raise the disk size; UPLOAD_MIN_FREE_MB sets the reserve)',
      );
    }
    return new HttpError(507, DISK_FULL);
  }
}
