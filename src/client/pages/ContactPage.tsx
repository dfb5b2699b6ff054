import { type FormEvent, useEffect, useId, useState } from 'react';
import { errorText, getJson, postJson, readJson } from '../api.ts';
import { MSG } from '../messages.ts';
import { useSession } from '../session/SessionProvider.tsx';
import { Alert } from '../ui/Alert.tsx';
import { Field } from '../ui/Field.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';

export default function ContactPage() {
  useDocumentTitle('Contact');
  const messageId = useId();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [notice, setNotice] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const { username } = useSession();

  // A logged-in customer need not type who they are: their name and email are filled in (still editable).
  useEffect(() => {
    if (!username) return;
    const controller = new AbortController();
    getJson('/api/check_session.php', { signal: controller.signal })
      .then(readJson)
      .then((data) => {
        if (controller.signal.aborted) return;
        setName((n) => n || username);
        if (typeof data.email === 'string') setEmail((e) => e || (data.email as string));
      })
      .catch(() => {});
    return () => controller.abort();
  }, [username]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setNotice(null);
    setBusy(true);
    try {
      const res = await postJson('/api/send_contact_email.php', { name, email, message });
      const data = await readJson(res);
      if (res.ok) {
        setNotice({ kind: 'success', text: MSG.contactOk });
        setName('');
        setEmail('');
        setMessage('');
      } else if (res.status === 429) {
        setNotice({ kind: 'error', text: MSG.contactTooMany });
      } else {
        setNotice({ kind: 'error', text: errorText(data) ?? MSG.contactFailed(res.statusText, res.status) });
      }
    } catch {
      setNotice({ kind: 'error', text: MSG.network });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="page contact-page" aria-labelledby="contact-title">
      <div className="contact-intro">
        <h1 id="contact-title">Contact us</h1>
        <p className="lead">
          A question about a model, an order or a custom job? Write to us and we will answer within one
          business day.
        </p>
        <ul className="contact-facts">
          <li>
            <strong>Where:</strong> Wisconsin, United States
          </li>
          <li>
            <strong>Shipping:</strong> United States and Canada, usually within 1 week
          </li>
          <li>
            <strong>Defects:</strong> report within 7 days of receipt
          </li>
        </ul>
      </div>
      <div className="card">
        <form onSubmit={onSubmit}>
          <Field
            label="Name"
            name="name"
            autoComplete="name"
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <Field
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <div className="field">
            <label htmlFor={messageId}>Message</label>
            <textarea
              id={messageId}
              name="message"
              required
              rows={6}
              maxLength={5000}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
            />
          </div>
          {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Sending…' : 'Send message'}
          </button>
        </form>
      </div>
    </section>
  );
}
