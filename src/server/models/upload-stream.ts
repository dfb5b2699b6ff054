import type { StreamOutcome, UploadStream } from './analysis-pool.ts';
import type { ModelExtension } from './file-name.ts';

// An upload analysed while it streams in (issue #27): receive-upload.ts tells the pool's follower what has
// landed in the temp file; the service takes its outcome instead of analysing the file, or the route
// discards it (a refused upload, one answered from the content-hash dedupe). See analysis-pool.ts stream().

/** Below this many bytes (the request's length) an upload is analysed once received: little to gain. */
export const FOLLOW_MIN_BYTES = 1024 * 1024;

/** Starts following the temp file about to be written, or null (then the file is analysed once whole). */
export type StartFollow = (file: { tempPath: string; extension: ModelExtension }) => UploadStream | null;

/** A followed upload's analysis: taken once by the service, else discarded. */
export class FollowedAnalysis {
  private settled = false;
  constructor(private readonly outcome: Promise<StreamOutcome>) {}

  /** The outcome, for the one who uses it. */
  take(): Promise<StreamOutcome> {
    this.settled = true;
    return this.outcome;
  }

  /** Not used: a big model's task is told to make no extras, and its thread goes back. */
  discard(): void {
    if (this.settled) return;
    this.settled = true;
    this.outcome.then(
      (o) => {
        if (o.kind === 'done') o.analysis.later?.proceed('stop');
      },
      () => {},
    );
  }
}
