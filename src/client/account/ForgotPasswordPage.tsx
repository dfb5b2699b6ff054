import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { errorText, postJson, readJson } from '../api.ts';
import { MSG } from '../messages.ts';
import { Alert } from '../ui/Alert.tsx';
import { Field } from '../ui/Field.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';

export default function ForgotPasswordPage() {
  useDocumentTitle('Forgot password');
  const [email, setEmail] = useState('');
  const [notice, setNotice] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setNotice(null);
    setBusy(true);
    try {
      const res = await postJson('/api/request_password_reset.php', { email });
      if (res.ok) {
        setNotice({ kind: 'success', text: MSG.forgotOk });
      } else if (res.status === 429) {
        setNotice({ kind: 'error', text: errorText(await readJson(res)) ?? MSG.forgotTooMany });
      } else {
        setNotice({ kind: 'error', text: MSG.forgotFailed(res.status) });
      }
    } catch {
      setNotice({ kind: 'error', text: MSG.network });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="page auth-page" aria-labelledby="forgot-title">
      <div className="card auth-card">
        <h1 id="forgot-title">Forgot your password?</h1>
        <p>Enter the email address of your account and we will send you a link to choose a new password.</p>
        <form onSubmit={onSubmit}>
          <Field
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
          <button type="submit" className="button button-primary button-block" disabled={busy}>
            {busy ? 'Sending…' : 'Send reset link'}
          </button>
        </form>
        <p className="auth-links">
          <Link to="/login">Back to login</Link>
        </p>
      </div>
    </section>
  );
}
