import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { emailField } from '../auth/schemas.ts';
import { getSessionUser } from '../auth/session-plugin.ts';
import type { AppContext } from '../context.ts';
import { methodNotAllowed, parseBody, rateLimit } from '../http/route-helpers.ts';
import { submitContactMessage } from './contact-service.ts';

export const CONTACT_MSG = {
  required: 'Name, email and message are required.',
  singleLine: 'Name and email must each be a single line.',
  nameTooLong: 'Name must be at most 100 characters long.',
  messageTooLong: 'Message must be at most 5000 characters long.',
  thanks: "Thank you for your message! We'll get back to you soon.",
  tooMany: 'Too many requests. Please wait before submitting again.',
} as const;

/** A line break in a value that ends up in a mail header is a header injection attempt (SECURITY.md 19). */
const singleLine = (s: string) => !/[\r\n]/.test(s);

const body = z.object({
  name: z
    .string()
    .refine(singleLine, CONTACT_MSG.singleLine)
    .transform((s) => s.trim())
    .pipe(z.string().max(100, CONTACT_MSG.nameTooLong)),
  email: z.string().refine(singleLine, CONTACT_MSG.singleLine).pipe(emailField),
  message: z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().max(5000, CONTACT_MSG.messageTooLong)),
});

const URL = '/api/send_contact_email.php';

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
      const input = parseBody(body, req.body, {
        fields: ['name', 'email', 'message'],
        message: CONTACT_MSG.required,
      });
      const { id } = await submitContactMessage(ctx, input, await getSessionUser(req));
      req.log.info({ contactMessageId: id }, 'contact message received');
      return { message: CONTACT_MSG.thanks };
    },
  );
  methodNotAllowed(app, URL, ['POST']);
}
