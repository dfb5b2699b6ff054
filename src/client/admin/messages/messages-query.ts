import { type AdminMessage, MESSAGES_PAGE_SIZE } from '../../../shared/admin-messages.ts';

// The Messages page's filter lives in its query string (?show=unhandled&page=2), so back, forward and
// reload keep it; these turn it into the API's query, and a message into its reply link.

export const MESSAGE_FILTERS = ['all', 'unhandled', 'handled'] as const;
export type MessageFilter = (typeof MESSAGE_FILTERS)[number];
export type MessagesView = { show: MessageFilter; page: number };

export const FILTER_LABELS: Record<MessageFilter, string> = {
  all: 'All',
  unhandled: 'Unhandled',
  handled: 'Handled',
};

/** What a query string asks for; anything unreadable falls back to all messages, page 1. */
export function readView(params: URLSearchParams): MessagesView {
  const show = params.get('show');
  const page = Number(params.get('page'));
  return {
    show: (MESSAGE_FILTERS as readonly string[]).includes(show ?? '') ? (show as MessageFilter) : 'all',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The page's own query string: defaults left out, so `/admin/messages` is all messages, page 1. */
export function viewToParams(view: MessagesView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.show !== 'all') params.set('show', view.show);
  if (view.page > 1) params.set('page', String(view.page));
  return params;
}

/** GET /api/admin/messages?... for this view. */
export function listQuery(view: MessagesView): string {
  const params = new URLSearchParams();
  if (view.show !== 'all') params.set('handled', view.show === 'handled' ? '1' : '0');
  params.set('page', String(view.page));
  params.set('pageSize', String(MESSAGES_PAGE_SIZE));
  return params.toString();
}

/** The longest part of the message the reply quotes: a mailto link must stay a reasonable length. */
const QUOTE_CHARS = 1000;

/**
 * A mailto: link answering the message: to its sender, "Re: your message to <shop>", and a body that greets
 * them and quotes what they wrote (the start of it, for a long one).
 */
export function replyHref(
  message: Pick<AdminMessage, 'name' | 'email' | 'message'>,
  shopName: string,
): string {
  const text =
    message.message.length > QUOTE_CHARS ? `${message.message.slice(0, QUOTE_CHARS)}…` : message.message;
  const quoted = text
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join('\n');
  const body = `Hello ${message.name},\n\n\n\n${message.name} wrote:\n${quoted}\n`;
  const to = encodeURIComponent(message.email).replace(/%40/g, '@');
  // encodeURIComponent, not URLSearchParams: mail programs read %20 as a space, not always '+'.
  return `mailto:${to}?subject=${encodeURIComponent(`Re: your message to ${shopName}`)}&body=${encodeURIComponent(body)}`;
}
