import type { FastifyReply } from 'fastify';
import { HttpError } from '../plugins/error-handler.ts';
import type { StoredFile } from '../storage/file-store.ts';
import { MODEL_NOT_FOUND } from './access.ts';

/** Streams a stored file (a model, its preview or its view mesh) as `type`; 404 when it is gone. */
export function sendStored(reply: FastifyReply, stored: StoredFile | null, type: string): FastifyReply {
  if (!stored) throw new HttpError(404, MODEL_NOT_FOUND);
  return reply
    .type(type)
    .header('content-length', stored.size)
    .header('x-content-type-options', 'nosniff')
    .send(stored.stream);
}
