import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { AdminMessage, AdminMessageChanged, AdminMessageList } from '../../../shared/admin-messages.ts';
import { Alert } from '../../ui/Alert.tsx';
import { useDocumentTitle } from '../../ui/useDocumentTitle.ts';
import { load, send } from '../admin-api.ts';
import { formatDateTime } from '../admin-format.ts';
import { ActionError } from '../admin-ui.tsx';
import { useAction } from '../use-action.ts';
import {
  FILTER_LABELS,
  listQuery,
  MESSAGE_FILTERS,
  type MessagesView,
  readView,
  replyHref,
  viewToParams,
} from './messages-query.ts';
import { setUnhandledCount } from './unhandled-count.ts';
import './messages.css';

/**
 * /admin/messages: the contact form's messages, unhandled first, then newest first; a filter (All,
 * Unhandled, Handled) and pages kept in the URL. Each message is shown as the text it is (never HTML).
 */
export default function MessagesPage() {
  useDocumentTitle('Messages');
  const [params] = useSearchParams();
  const view = readView(params);
  const key = listQuery(view);
  const [list, setList] = useState<AdminMessageList | null>(null);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    load<AdminMessageList>(`/api/admin/messages?${key}`, controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      setLoading(false);
      if (result.ok) {
        setList(result.data);
        setUnhandledCount(result.data.unhandled);
        setError('');
      } else {
        setError(result.error);
      }
    });
    return () => controller.abort();
  }, [key]);

  // A changed message stays where it is until the list is read again: the admin sees what they did.
  function onChanged(changed: AdminMessageChanged) {
    setUnhandledCount(changed.unhandled);
    setList(
      (l) =>
        l && {
          ...l,
          unhandled: changed.unhandled,
          messages: l.messages.map((m) => (m.id === changed.message.id ? changed.message : m)),
        },
    );
  }

  const linkTo = (patch: Partial<MessagesView>) => {
    const search = viewToParams({ ...view, page: 1, ...patch }).toString();
    return search ? `?${search}` : '/admin/messages';
  };
  const pages = list ? Math.max(1, Math.ceil(list.total / list.pageSize)) : 1;

  return (
    <div className="admin-messages">
      <div className="admin-title-row">
        <h1>Messages</h1>
        {list && (
          <p className="messages-summary">
            {list.unhandled === 0
              ? 'Every message is handled.'
              : `${list.unhandled} unhandled ${list.unhandled === 1 ? 'message' : 'messages'}`}
          </p>
        )}
      </div>

      <nav className="admin-tabs" aria-label="Messages by state">
        <ul>
          {MESSAGE_FILTERS.map((show) => (
            <li key={show}>
              <Link
                to={linkTo({ show })}
                className="admin-tab"
                aria-current={view.show === show ? 'page' : undefined}
              >
                {FILTER_LABELS[show]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      {error && <Alert kind="error">{error}</Alert>}
      {!list && !error ? (
        <p className="loading" role="status">
          Loading messages…
        </p>
      ) : list && list.messages.length === 0 ? (
        <p className="empty">
          {view.show === 'unhandled'
            ? 'No unhandled messages.'
            : view.show === 'handled'
              ? 'No handled messages.'
              : 'No messages yet.'}
        </p>
      ) : list ? (
        <ol className="message-list" aria-busy={loading}>
          {list.messages.map((m) => (
            <MessageCard key={m.id} message={m} shopName={list.shopName} onChanged={onChanged} />
          ))}
        </ol>
      ) : null}

      {list && pages > 1 && (
        <nav className="admin-pages" aria-label="Pages">
          {view.page > 1 ? (
            <Link className="button button-small" to={linkTo({ page: view.page - 1 })}>
              Previous
            </Link>
          ) : (
            <span />
          )}
          <span>
            Page {view.page} of {pages} ({list.total} messages)
          </span>
          {view.page < pages ? (
            <Link className="button button-small" to={linkTo({ page: view.page + 1 })}>
              Next
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </div>
  );
}

function MessageCard({
  message: m,
  shopName,
  onChanged,
}: {
  message: AdminMessage;
  shopName: string;
  onChanged: (changed: AdminMessageChanged) => void;
}) {
  const action = useAction();
  const handled = m.handledAt !== null;
  const headingId = `message-${m.id}-from`;

  async function toggle() {
    const path = `/api/admin/messages/${m.id}/handled` as const;
    const changed = await action.run(() => send<AdminMessageChanged, typeof path>(path, { value: !handled }));
    if (changed) onChanged(changed);
  }

  return (
    <li className={handled ? 'card message is-handled' : 'card message'} data-message-id={m.id}>
      <article aria-labelledby={headingId}>
        <header className="message-head">
          <h2 id={headingId} className="message-from">
            {m.name}
          </h2>
          <span className="message-meta">
            <a href={`mailto:${m.email}`}>{m.email}</a>
            {m.user && (
              <span className="muted">
                {' · account '}
                <Link to={`/admin/customers/${m.user.id}`}>{m.user.username}</Link>
              </span>
            )}
            <span className="muted">
              {' · '}
              <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
            </span>
          </span>
          {handled ? (
            <span className="admin-marker marker-ok">Handled</span>
          ) : (
            <span className="admin-marker marker-warn">Unhandled</span>
          )}
        </header>
        <p className="message-text">{m.message}</p>
        <footer className="message-actions">
          <a className="button button-small" href={replyHref(m, shopName)}>
            Reply<span className="visually-hidden"> to {m.name}</span>
          </a>
          <button type="button" className="button button-small" disabled={action.busy} onClick={toggle}>
            {action.busy ? 'Saving…' : handled ? 'Mark unhandled' : 'Mark handled'}
            <span className="visually-hidden"> (message from {m.name})</span>
          </button>
          {handled && (
            <span className="message-handled muted">
              Handled{m.handledBy ? ` by ${m.handledBy}` : ''} on{' '}
              <time dateTime={m.handledAt!}>{formatDateTime(m.handledAt!)}</time>
            </span>
          )}
        </footer>
        <ActionError error={action.error} />
      </article>
    </li>
  );
}
