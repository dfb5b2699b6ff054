import type { FastifyInstance } from 'fastify';
import { API } from '../../shared/api.ts';
import { CONTACT_MSG } from '../../shared/contact.ts';
import { getSessionUser } from '../auth/session-plugin.ts';
import type { AppContext } from '../context.ts';
import { methodNotAllowed, parseRouteBody, rateLimit } from '../http/route-helpers.ts';
import { submitContactMessage } from './contact-service.ts';

const URL = API.contact.path;

/** POST /api/send_contact_email.php {name, email, message} -> 200 {message}; 5 per 10 minutes per IP. */
export async function contactRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  app.post(
    URL,
    {
      config: {
        rateLimit: rateLimit(ctx.config, { max: 5, windowMs: 10 * 60_000, message: CONTACT_MSG.tooMany }),
      },
    },
    async (req) => {
      const input = parseRouteBody(API.contact, req.body);
      const { id } = await submitContactMessage(ctx, input, await getSessionUser(req));
      req.log.info({ contactMessageId: id }, 'contact message received');
      return { message: CONTACT_MSG.thanks };
    },
  );
  methodNotAllowed(app, URL, ['POST']);
}
