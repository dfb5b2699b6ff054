import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { methodNotAllowed } from '../../http/route-helpers.ts';
import { escapeHtml } from '../../mail/templates.ts';
import { MSG } from '../schemas.ts';
import { verifyEmail } from '../verification-service.ts';

function failurePage(shopName: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Verification link not valid - ${escapeHtml(shopName)}</title></head>
<body>
<main>
<h1>This verification link is not valid</h1>
<p>It may have expired (links work for 24 hours), been used already, or been copied incompletely.</p>
<p>If you already verified your email, just log in. Otherwise log in and choose "Resend Email" to get a new link.</p>
<p><a href="/login">Go to the login page</a></p>
</main>
</body>
</html>
`;
}

/** GET /api/verify-email?token= (the link in the verification mail) -> 302 /login?verified=1, or 400. */
export function verifyEmailRoute(app: FastifyInstance, ctx: AppContext) {
  app.get('/api/verify-email', async (req, reply) => {
    const token = (req.query as Record<string, unknown> | undefined)?.token;
    if (await verifyEmail(ctx, token)) return reply.redirect('/login?verified=1', 302);
    reply.code(400).header('cache-control', 'no-store');
    // A person clicking the mail's link gets a page; a script gets JSON.
    if (String(req.headers.accept ?? '').includes('text/html')) {
      return reply.type('text/html; charset=utf-8').send(failurePage(ctx.config.shopName));
    }
    return reply.send({ error: MSG.verifyFailed });
  });
  methodNotAllowed(app, '/api/verify-email', ['GET']);
}
