import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API } from '../../shared/api.ts';
import type { ModelListPayload } from '../../shared/models.ts';
import { clientBucket } from '../http/client-key.ts';
import { methodNotAllowed } from '../http/route-helpers.ts';
import { loadPricingSettings } from '../pricing/settings-repository.ts';
import { findOwnedModel, findReadableModel, ownerOf } from './access.ts';
import { ensureViewMesh } from './extras-service.ts';
import { attachmentDisposition } from './file-name.ts';
import { toModelPayload } from './model-payload.ts';
import { hideModel, listOwnedModels } from './models-repository.ts';
import { resolveViewer } from './owner.ts';
import type { ModelsDeps } from './plugin-deps.ts';
import { previewRoute } from './preview-route.ts';
import { checkQuota } from './quota.ts';
import { scaleModel } from './scale-service.ts';
import { sendStored } from './send-stored.ts';
import { recordStaffDownload } from './staff-download.ts';
import { viewCoarseRoute } from './view-coarse-route.ts';
import { readViewFacts } from './view-facts.ts';

// A model, its file, its preview (preview-route.ts) and its view mesh: for the owner, the owner of an order
// holding it, or staff (404 for everyone else). Scaling makes a new model for the owner.

const params = z.object({ id: z.string().max(64) });

/** As many as the upload tool remembers (MAX_SAVED_MODELS). */
const MAX_LISTED_MODELS = 100;

export async function modelRoutes(app: FastifyInstance, deps: ModelsDeps) {
  const { ctx, store } = deps;

  // The caller's models (account, or this browser while logged out), so they follow the account to
  // another device. Models the owner removed, and the originals of rescaled ones, are not listed.
  app.get(API.myModels.path, async (req, reply) => {
    const owner = ownerOf(await resolveViewer(req));
    const rows = owner ? await listOwnedModels(ctx.db, owner, MAX_LISTED_MODELS) : [];
    const pricing = await loadPricingSettings(ctx.db);
    const warnings = await deps.warnings();
    const payload: ModelListPayload = {
      models: rows.map((m) => toModelPayload(m, pricing, warnings)),
    };
    return reply.header('cache-control', 'private, no-store').send(payload);
  });

  app.delete(API.removeModel.path, async (req, reply) => {
    const { id } = params.parse(req.params);
    const model = await findOwnedModel(ctx.db, id, await resolveViewer(req));
    await hideModel(ctx.db, model.id, ctx.now());
    return reply.code(204).send();
  });

  app.get(API.model.path, async (req, reply) => {
    const { id } = params.parse(req.params);
    const model = await findReadableModel(ctx.db, id, await resolveViewer(req));
    const pricing = await loadPricingSettings(ctx.db);
    return reply
      .header('cache-control', 'private, no-cache')
      .send(toModelPayload(model, pricing, await deps.warnings()));
  });

  app.get(API.modelFile.path, async (req, reply) => {
    const { id } = params.parse(req.params);
    const viewer = await resolveViewer(req);
    const model = await findReadableModel(ctx.db, id, viewer);
    const stored = await store.get(model.storageKey);
    if (stored) await recordStaffDownload(ctx.db, { model, viewer, now: ctx.now(), log: req.log });
    reply
      .header('content-disposition', attachmentDisposition(model.fileName))
      .header('cache-control', 'private, no-store');
    return sendStored(reply, stored, 'application/octet-stream');
  });

  await previewRoute(app, deps);

  // What the 3D viewer draws: the view mesh made from our own parser's triangles (view-mesh.ts), made
  // now for a model uploaded before view meshes existed.
  app.get(API.modelView.path, async (req, reply) => {
    const { id } = params.parse(req.params);
    const found = await findReadableModel(ctx.db, id, await resolveViewer(req));
    const model = await ensureViewMesh(deps, found, clientBucket(req.ip), req.log);
    const stored = await store.get(model.viewKey!);
    // Simplified is what the GLB says of itself (view-facts.ts), not a count of its triangles.
    const view = stored && (await readViewFacts(stored, model));
    reply
      .header('cache-control', 'private, max-age=86400')
      .header('x-view-simplified', view?.facts.simplified ? '1' : '0')
      .header('x-view-triangles', String(model.viewTriangles ?? model.triangles));
    return sendStored(reply, view?.stored ?? null, 'model/gltf-binary');
  });

  await viewCoarseRoute(app, deps);

  app.post(API.scaleModel.path, async (req, reply) => {
    const { id } = params.parse(req.params);
    const { factor } = API.scaleModel.body.parse(req.body ?? {});
    const viewer = await resolveViewer(req);
    const source = await findOwnedModel(ctx.db, id, viewer);
    const owner = ownerOf(viewer)!;
    await checkQuota(ctx.db, owner, ctx.now(), deps.quota);
    const model = await scaleModel(ctx.db, source, factor, owner, ctx.now());
    const pricing = await loadPricingSettings(ctx.db);
    return reply
      .code(201)
      .header('cache-control', 'no-store')
      .send(toModelPayload(model, pricing, await deps.warnings()));
  });

  methodNotAllowed(app, API.myModels.path, ['GET']);
  methodNotAllowed(app, API.model.path, ['GET', 'DELETE']);
  methodNotAllowed(app, API.modelFile.path, ['GET']);
  methodNotAllowed(app, API.modelPreview.path, ['GET']);
  methodNotAllowed(app, API.modelView.path, ['GET']);
  methodNotAllowed(app, API.scaleModel.path, ['POST']);
}
