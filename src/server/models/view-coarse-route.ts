import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { methodNotAllowed } from '../http/route-helpers.ts';
import { findReadableModel } from './access.ts';
import { coarseView } from './extras-service.ts';
import { resolveViewer } from './owner.ts';
import type { ModelsDeps } from './plugin-deps.ts';

// GET /api/models/:id/view-coarse.glb: while a big model's view mesh is still being made just after its
// upload, a rough one (a few tens of thousands of triangles, made first in the same task) that the viewer
// draws at once and replaces with view.glb when that arrives. 204 when there is none to give: the model is
// small, its view mesh is stored, or it was made elsewhere (another instance, a restart). Same access as
// the model. Kept in memory only, for the few seconds the full view takes: never cached by the browser.

export const VIEW_COARSE_PATH = '/api/models/:id/view-coarse.glb';

const params = z.object({ id: z.string().max(64) });

export async function viewCoarseRoute(app: FastifyInstance, deps: Pick<ModelsDeps, 'ctx'>) {
  app.get(VIEW_COARSE_PATH, async (req, reply) => {
    const { id } = params.parse(req.params);
    const model = await findReadableModel(deps.ctx.db, id, await resolveViewer(req));
    const coarse = await coarseView(model);
    reply.header('cache-control', 'private, no-store');
    if (!coarse) return reply.code(204).send();
    return reply
      .type('model/gltf-binary')
      .header('x-content-type-options', 'nosniff')
      .header('x-view-triangles', String(coarse.triangles))
      .send(Buffer.from(coarse.glb.buffer, coarse.glb.byteOffset, coarse.glb.byteLength));
  });
  methodNotAllowed(app, VIEW_COARSE_PATH, ['GET']);
}
