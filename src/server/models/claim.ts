import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { claimVisitorModels } from './models-repository.ts';
import { VISITOR_COOKIE } from './owner.ts';

/**
 * At login (and registration, if it logs in): the models this browser uploaded while logged out become
 * the account's. Answers how many moved. `claimVisitorModels` does the same from a raw cookie value.
 */
export function claimRequestModels(db: Db, req: FastifyRequest, userId: number): Promise<number> {
  return claimVisitorModels(db, req.cookies[VISITOR_COOKIE], userId);
}
