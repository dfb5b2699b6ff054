import type { FastifyInstance, FastifyRequest } from 'fastify';
import { adminCustomersQuery } from '../../../shared/admin-customers.ts';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed, parseBody, parseRouteBody } from '../../http/route-helpers.ts';
import type { AdminPluginOptions } from '../plugin.ts';
import { setAdminAccess } from './admin-role.ts';
import { customerDetailOr404 } from './customer-detail.ts';
import { setDisabled } from './disable.ts';
import { listCustomers } from './list-customers.ts';
import { customerIdOf } from './params.ts';
import { resendVerificationMail } from './resend.ts';
import { markVerified } from './verify.ts';

// The back office's customers (docs/api.md "Admin"): the list, one account, and what staff may change on it.
// Every change answers 200 { message, detail } (the account as GET /api/admin/customers/:id now shows it);
// 400 a bad body, 404 an unknown id, 409 a change the rules refuse, nothing changed.

export async function customerRoutes(app: FastifyInstance, { ctx }: AdminPluginOptions) {
  const answer = async (req: FastifyRequest, userId: number, message: string) => ({
    message,
    detail: await customerDetailOr404(ctx.db, userId, req.user!.id, ctx.now()),
  });

  app.get(API.adminCustomers.path, { preHandler: requireAdmin }, async (req) =>
    listCustomers(ctx.db, parseBody(adminCustomersQuery, req.query)),
  );
  methodNotAllowed(app, API.adminCustomers.path, ['GET']);

  app.get(API.adminCustomer.path, { preHandler: requireAdmin }, async (req) =>
    customerDetailOr404(ctx.db, customerIdOf(req.params), req.user!.id, ctx.now()),
  );
  methodNotAllowed(app, API.adminCustomer.path, ['GET']);

  post(app, API.adminCustomerVerify, async (req, userId) => {
    parseRouteBody(API.adminCustomerVerify, req.body);
    return answer(req, userId, await markVerified(ctx, userId, req.user!.id));
  });

  post(app, API.adminCustomerResend, async (req, userId) => {
    parseRouteBody(API.adminCustomerResend, req.body);
    return answer(req, userId, await resendVerificationMail(ctx, userId, req.user!.id));
  });

  post(app, API.adminCustomerAdmin, async (req, userId) => {
    const { value } = parseRouteBody(API.adminCustomerAdmin, req.body);
    return answer(req, userId, await setAdminAccess(ctx, userId, req.user!.id, value));
  });

  post(app, API.adminCustomerDisable, async (req, userId) => {
    const { value } = parseRouteBody(API.adminCustomerDisable, req.body);
    const deps = { ...app.payments, log: req.log };
    return answer(req, userId, await setDisabled(deps, userId, req.user!.id, value));
  });
}

/** An admin-only POST on one account: the id read first (404), then the handler. */
function post(
  app: FastifyInstance,
  route: { path: string },
  handler: (req: FastifyRequest, userId: number) => Promise<unknown>,
) {
  app.post(route.path, { preHandler: requireAdmin }, async (req) => handler(req, customerIdOf(req.params)));
  methodNotAllowed(app, route.path, ['POST']);
}
