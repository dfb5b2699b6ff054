import { z } from 'zod';

// The back office's contact-form messages (docs/api.md "Admin"): one schema for the server's parsing and
// the panel's types. A message is text as the sender typed it: the panel shows it as text, never as HTML.

export const MESSAGES_MSG = {
  notFound: 'Message not found.',
  handledFilter: 'Handled is 1 (handled), 0 (unhandled) or empty (all).',
  page: 'Page is a whole number from 1.',
  pageSize: 'Page size is a whole number from 1 to 100.',
  value: 'Send { "value": true } to mark the message handled, false to mark it unhandled.',
} as const;

export const MESSAGES_PAGE_SIZE = 20;

/** GET /api/admin/messages?handled=&page=&pageSize= */
export const adminMessagesQuery = z.object({
  /** '1' handled only, '0' unhandled only, '' or absent all. */
  handled: z
    .enum(['', '0', '1'], MESSAGES_MSG.handledFilter)
    .optional()
    .transform((v) => (v === '1' ? true : v === '0' ? false : undefined)),
  page: z.coerce
    .number(MESSAGES_MSG.page)
    .int(MESSAGES_MSG.page)
    .min(1, MESSAGES_MSG.page)
    .max(100_000)
    .default(1),
  pageSize: z.coerce
    .number(MESSAGES_MSG.pageSize)
    .int(MESSAGES_MSG.pageSize)
    .min(1, MESSAGES_MSG.pageSize)
    .max(100, MESSAGES_MSG.pageSize)
    .default(MESSAGES_PAGE_SIZE),
});
export type AdminMessagesFilter = z.output<typeof adminMessagesQuery>;

export const adminMessage = z.object({
  id: z.number(),
  /** As the sender typed them (plain text). */
  name: z.string(),
  email: z.string(),
  message: z.string(),
  /** The account the sender was logged in with, if any. */
  user: z.object({ id: z.number(), username: z.string() }).nullable(),
  createdAt: z.string(),
  handledAt: z.string().nullable(),
  /** The admin who marked it handled (null when not handled, or their account is gone). */
  handledBy: z.string().nullable(),
});
export type AdminMessage = z.infer<typeof adminMessage>;

export const adminMessageList = z.object({
  /** Unhandled first, then newest first. */
  messages: z.array(adminMessage),
  /** Messages matching the filter (all pages). */
  total: z.number(),
  /** Unhandled messages in all, whatever the filter: the panel's menu shows it. */
  unhandled: z.number(),
  page: z.number(),
  pageSize: z.number(),
  /** For the reply's subject ("Re: your message to <shop>"). */
  shopName: z.string(),
});
export type AdminMessageList = z.infer<typeof adminMessageList>;

/** POST /api/admin/messages/:id/handled */
export const adminMessageHandledRequest = z.object({
  value: z.boolean(MESSAGES_MSG.value),
});

export const adminMessageChanged = z.object({ message: adminMessage, unhandled: z.number() });
export type AdminMessageChanged = z.infer<typeof adminMessageChanged>;
