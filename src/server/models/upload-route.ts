import fsp from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API } from '../../shared/api.ts';
import { MAX_UPLOAD_BYTES } from '../../shared/catalog.ts';
import { STORED_PREVIEW_COLOR } from '../../shared/preview-color.ts';
import type { Model } from '../db/schema.ts';
import { clientBucket } from '../http/client-key.ts';
import { methodNotAllowed, rateLimit } from '../http/route-helpers.ts';
import { loadPricingSettings } from '../pricing/settings-repository.ts';
import { ownerOf } from './access.ts';
import { isNoSpaceError } from './disk-space.ts';
import { scheduleExtras } from './extras-service.ts';
import { toModelPayload } from './model-payload.ts';
import { ensureVisitorHash, type Owner, resolveViewer } from './owner.ts';
import type { ModelsDeps } from './plugin-deps.ts';
import { checkIpQuota, checkQuota } from './quota.ts';
import { type ReceiveSpaceCheck, receiveUpload } from './receive-upload.ts';
import { createModelFromUpload } from './upload-service.ts';
import { FOLLOW_MIN_BYTES, type StartFollow } from './upload-stream.ts';
import type { WarningOptions } from './warnings.ts';

// POST /api/uploads: one .stl/.obj/.3mf in the multipart field `file`, logged in or not -> 201 modelPayload.
// Refused before the file is read when over a quota (per owner, per client address) or the disk is low.

export const UPLOAD_RATE = {
  max: 30,
  windowMs: 10 * 60_000,
  message: 'Too many uploads from your network. Please wait a few minutes and try again.',
};

/** The free disk space is checked again after every this many bytes received. */
const SPACE_CHECK_EVERY = 8 * 1024 * 1024;

/** What the file will take on disk, at most: the request's length (a little more, for the form around it). */
function expectedBytes(req: FastifyRequest): number {
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length >= 0 ? Math.min(length, MAX_UPLOAD_BYTES) : MAX_UPLOAD_BYTES;
}

export async function uploadRoute(app: FastifyInstance, deps: ModelsDeps) {
  const { ctx, disk } = deps;
  const config = { rateLimit: rateLimit(ctx.config, UPLOAD_RATE) };
  app.post(API.upload.path, { config }, async (req, reply) => {
    const checking = performance.now();
    const viewer = await resolveViewer(req);
    const owner: Owner = ownerOf(viewer) ?? {
      userId: null,
      visitorHash: ensureVisitorHash(req, reply, ctx.config.secureCookies),
    };
    const source = { ipHash: await deps.uploadIpHash(req.ip), client: clientBucket(req.ip) };
    await checkQuota(ctx.db, owner, ctx.now(), deps.quota);
    await checkIpQuota(ctx.db, source.ipHash, ctx.now(), deps.ipQuota);
    const expected = expectedBytes(req);
    await disk.check(expected, req.log);
    const space: ReceiveSpaceCheck = {
      everyBytes: SPACE_CHECK_EVERY,
      received: (soFar) => disk.check(Math.max(0, expected - soFar), req.log),
      noSpace: () => disk.refuse(req.log, { during: 'receive' }),
    };
    // A thread made ready while the bytes arrive, if none is alive (analysis-pool.ts warm()).
    void deps.pool.warm?.();
    // A big model is analysed as it streams in when a thread is free now (analysis-pool.ts stream()).
    const stream = deps.pool.stream;
    // Only with a declared length: it presizes the reader's tables until the file's own size is known.
    const declared = req.headers['content-length'] !== undefined;
    const follow: StartFollow | undefined =
      stream && declared && expected >= FOLLOW_MIN_BYTES
        ? ({ tempPath, extension }) =>
            stream({ path: tempPath, extension, color: STORED_PREVIEW_COLOR }, source.client, expected)
        : undefined;
    const receiving = performance.now();
    const upload = await receiveUpload(req, deps.tmpDir, space, follow);
    // Where the time went, for the browser's network panel and `npm run bench upload`.
    const timings: string[] = [];
    const timing = (stage: string, ms: number) => timings.push(`${stage};dur=${ms.toFixed(1)}`);
    timing('checks', receiving - checking);
    timing('receive', performance.now() - receiving);
    let model: Model;
    let settings: Promise<[Awaited<ReturnType<typeof loadPricingSettings>>, WarningOptions]>;
    try {
      await checkQuota(ctx.db, owner, ctx.now(), deps.quota, upload.sizeBytes);
      await checkIpQuota(ctx.db, source.ipHash, ctx.now(), deps.ipQuota, upload.sizeBytes);
      // Read while the analysis finishes: the answer needs them right after.
      settings = Promise.all([loadPricingSettings(ctx.db), deps.warnings()]);
      settings.catch(() => {}); // a failed upload never reads them
      model = await createModelFromUpload(
        {
          db: ctx.db,
          store: deps.store,
          pool: deps.pool,
          now: ctx.now,
          log: req.log,
          timing,
          // A big model's extras are made once the answer is out (or the connection is gone).
          answered: new Promise((resolve) => reply.raw.once('close', () => resolve())),
        },
        upload,
        owner,
        source,
      );
    } catch (err) {
      // Storing the file or its preview ran out of room: the service has removed what it stored.
      if (isNoSpaceError(err)) throw disk.refuse(req.log, { during: 'store' });
      throw err;
    } finally {
      // Unused when refused or answered from the dedupe: its task makes nothing more.
      upload.followed?.discard();
      // Before answering: once the client hears back, no temp file is left.
      await fsp.rm(upload.tempPath, { force: true });
    }
    // A big model's preview and view mesh are made after this answer, in the uploader's share of the
    // analysis threads.
    scheduleExtras(deps, model, source.client, req.log);
    const [pricing, warnings] = await settings;
    const payload = toModelPayload(model, pricing, warnings);
    return reply
      .code(201)
      .header('cache-control', 'no-store')
      .header('server-timing', timings.join(', '))
      .send(payload);
  });
  methodNotAllowed(app, API.upload.path, ['POST']);
}
