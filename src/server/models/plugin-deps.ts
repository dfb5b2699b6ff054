import type { AppContext } from '../context.ts';
import type { FileStore } from '../storage/file-store.ts';
import type { AnalysisPool } from './analysis-pool.ts';
import type { DiskSpaceGuard } from './disk-space.ts';
import type { IpQuotaLimits, QuotaLimits } from './quota.ts';
import type { UploadIpHasher } from './upload-ip.ts';
import type { WarningOptions } from './warnings.ts';

/** What the model routes share, built once by modelsPlugin. */
export type ModelsDeps = {
  ctx: AppContext;
  store: FileStore;
  pool: AnalysisPool;
  quota: QuotaLimits;
  ipQuota: IpQuotaLimits;
  /** `req.ip` -> the keyed hash stored with each upload for the per-IP quota. */
  uploadIpHash: UploadIpHasher;
  disk: DiskSpaceGuard;
  /** The warnings' options in force: the build volume is a shop setting, read per call (one small query). */
  warnings: () => Promise<WarningOptions>;
  /** Where uploads are streamed before they are accepted (`${dataDir}/tmp`). */
  tmpDir: string;
};
