import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { API } from '../../shared/api.ts';
import { PREVIEW_COLOR_IDS, PREVIEW_COLOR_MSG, type PreviewColorId } from '../../shared/preview-color.ts';
import { clientBucket } from '../http/client-key.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { findReadableModel, MODEL_NOT_FOUND } from './access.ts';
import { ensurePreview } from './extras-service.ts';
import { findModel } from './models-repository.ts';
import { resolveViewer } from './owner.ts';
import type { ModelsDeps } from './plugin-deps.ts';
import { createPreviewLinks } from './preview-links.ts';
import { createTintedPreviews } from './preview-tint.ts';
import { sendStored } from './send-stored.ts';

// GET /api/models/:id/preview.png: a model's preview for its owner, the owner of an order holding it, or
// staff; or for anyone with a signed link (an order mail, the hosted checkout), which may be shown on
// another site (a mail reader), so only that answer allows cross-origin use. `?color=red` recolours it.

const params = z.object({ id: z.string().max(64) });
const query = z.object({
  color: z.enum(PREVIEW_COLOR_IDS).optional(),
  exp: z.unknown().optional(),
  sig: z.unknown().optional(),
});

/** One validator per picture and colour; the storage key itself is not shown. */
function previewEtag(previewKey: string, color: PreviewColorId | undefined): string {
  const picture = createHash('sha256').update(previewKey).digest('base64url').slice(0, 22);
  return `W/"${picture}-${color ?? 'stored'}"`;
}

/** If-None-Match names this validator (or any): the browser's copy is current. */
function notModified(req: FastifyRequest, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

export async function previewRoute(app: FastifyInstance, deps: ModelsDeps) {
  const { ctx, store } = deps;
  const previewLinks = createPreviewLinks(ctx.db, ctx.config.publicUrl);
  const tinted = createTintedPreviews();

  app.get(API.modelPreview.path, async (req, reply) => {
    const { id } = params.parse(req.params);
    const parsed = query.safeParse(req.query ?? {});
    if (!parsed.success) throw new HttpError(400, PREVIEW_COLOR_MSG.unknown);
    const { color, exp, sig } = parsed.data;
    // A signed link opens this one preview, in the colour it was signed for, without a session.
    const signed = sig !== undefined && (await previewLinks.verify(id, exp, sig, ctx.now(), color));
    const model = signed
      ? await findModel(ctx.db, id)
      : await findReadableModel(ctx.db, id, await resolveViewer(req));
    if (!model) throw new HttpError(404, MODEL_NOT_FOUND);
    // A big model's preview is still being made just after its upload: this waits for it.
    const { previewKey } = await ensurePreview(deps, model, clientBucket(req.ip), req.log);
    const etag = previewEtag(previewKey!, color);
    // A model's preview never changes (a new scale is a new model): the browser may keep it a day.
    reply.header('cache-control', 'private, max-age=86400').header('etag', etag);
    // A mail reader shows a signed link's image from its own origin (helmet's default is same-origin).
    if (signed) reply.header('cross-origin-resource-policy', 'cross-origin');
    if (notModified(req, etag)) return reply.code(304).send();
    if (!color) return sendStored(reply, await store.get(previewKey!), 'image/png');
    const png = await tinted.get(previewKey!, color, async () => {
      const stored = await store.get(previewKey!);
      if (!stored) throw new HttpError(404, MODEL_NOT_FOUND);
      return buffer(stored.stream);
    });
    return reply
      .type('image/png')
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(png.buffer, png.byteOffset, png.length));
  });
}
