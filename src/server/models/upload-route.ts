import fsp from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { Model } from '../db/schema.ts';
import { methodNotAllowed, rateLimit } from '../http/route-helpers.ts';
import { loadPricingSettings } from '../pricing/settings-repository.ts';
import { ownerOf } from './access.ts';
import { toModelPayload } from './model-payload.ts';
import { ensureVisitorHash, type Owner, resolveViewer } from './owner.ts';
import type { ModelsDeps } from './plugin-deps.ts';
import { checkQuota } from './quota.ts';
import { receiveUpload } from './receive-upload.ts';
import { createModelFromUpload } from './upload-service.ts';

// POST /api/uploads: one .stl/.obj in the multipart field `file`, logged in or not -> 201 modelPayload.

export const UPLOAD_RATE = {
  max: 30,
  windowMs: 10 * 60_000,
  message: 'Too many uploads from your network. Please wait a few minutes and try again.',
};

export async function uploadRoute(app: FastifyInstance, deps: ModelsDeps) {
  const { ctx } = deps;
  const config = { rateLimit: rateLimit(ctx.config, UPLOAD_RATE) };
  app.post('/api/uploads', { config }, async (req, reply) => {
    const viewer = await resolveViewer(req);
    const owner: Owner = ownerOf(viewer) ?? {
      userId: null,
      visitorHash: ensureVisitorHash(req, reply, ctx.config.secureCookies),
    };
    await checkQuota(ctx.db, owner, ctx.now(), deps.quota);
    const upload = await receiveUpload(req, deps.tmpDir);
    let model: Model;
    try {
      await checkQuota(ctx.db, owner, ctx.now(), deps.quota, upload.sizeBytes);
      model = await createModelFromUpload(
        { db: ctx.db, store: deps.store, pool: deps.pool, now: ctx.now, log: req.log },
        upload,
        owner,
      );
    } finally {
      // Before answering: once the client hears back, no temp file is left.
      await fsp.rm(upload.tempPath, { force: true });
    }
    const payload = toModelPayload(model, await loadPricingSettings(ctx.db), deps.warnings);
    return reply.code(201).header('cache-control', 'no-store').send(payload);
  });
  methodNotAllowed(app, '/api/uploads', ['POST']);
}
