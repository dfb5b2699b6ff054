import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { MIN_PASSWORD_LENGTH } from '../../shared/catalog.ts';
import { errorText, postJson, readJson } from '../api.ts';
import { MSG } from '../messages.ts';
import { Alert } from '../ui/Alert.tsx';
import { Field } from '../ui/Field.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';

/** Milliseconds before a successful reset goes on to /login (docs/domain.md). */
export const RESET_REDIRECT_MS = 3000;

export default function ResetPasswordPage() {
  useDocumentTitle('Reset password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [notice, setNotice] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate('/login'), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  if (!token) {
    return (
      <section className="page auth-page" aria-labelledby="invalid-title">
        <div className="card auth-card">
          <h1 id="invalid-title">Invalid Link</h1>
          <Alert kind="error">{MSG.resetNoTokenInUrl}</Alert>
          <p className="auth-links">
            <Link to="/forgot-password">Request a new reset link</Link>
          </p>
        </div>
      </section>
    );
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setNotice(null);
    if (!token) return setNotice({ kind: 'error', text: MSG.resetNoToken });
    if (password.length < MIN_PASSWORD_LENGTH)
      return setNotice({ kind: 'error', text: MSG.passwordTooShort });
    if (password !== confirmPassword) return setNotice({ kind: 'error', text: MSG.passwordsDoNotMatch });
    setBusy(true);
    try {
      const res = await postJson('/api/reset_password.php', { token, password, confirmPassword });
      if (res.ok) {
        setNotice({ kind: 'success', text: MSG.resetOk });
        setDone(true);
      } else {
        setNotice({ kind: 'error', text: errorText(await readJson(res)) ?? MSG.resetFailed });
      }
    } catch {
      setNotice({ kind: 'error', text: MSG.network });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="page auth-page" aria-labelledby="reset-title">
      <div className="card auth-card">
        <h1 id="reset-title">Choose a new password</h1>
        <form onSubmit={onSubmit}>
          <Field
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            hint="At least 6 characters."
          />
          <Field
            label="Confirm new password"
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            required
            value={confirmPassword}
            onChange={(e) => setConfirmPassword(e.target.value)}
          />
          {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
          <button type="submit" className="button button-primary button-block" disabled={busy || done}>
            {busy ? 'Saving…' : 'Reset password'}
          </button>
        </form>
      </div>
    </section>
  );
}
