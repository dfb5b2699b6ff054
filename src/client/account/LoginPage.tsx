import { type FormEvent, useState } from 'react';
import { Link, type Location, useLocation, useNavigate, useSearchParams } from 'react-router';
import { errorText, messageText, postJson, readJson } from '../api.ts';
import { MSG } from '../messages.ts';
import { useSession } from '../session/SessionProvider.tsx';
import { Alert } from '../ui/Alert.tsx';
import { Field } from '../ui/Field.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';

type Notice = { kind: 'error' | 'success' | 'info'; text: string };

export default function LoginPage() {
  useDocumentTitle('Log in');
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [resend, setResend] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);

  const from = (location.state as { from?: Location } | null)?.from;
  const target = from ? `${from.pathname}${from.search}${from.hash}` : '/';

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError('');
    setResend(null);
    setBusy(true);
    try {
      const res = await postJson('/api/login.php', { username, password });
      const data = await readJson(res);
      if (!res.ok) {
        setError(errorText(data) ?? MSG.loginFailed);
        return;
      }
      await session.loggedIn(typeof data.username === 'string' ? data.username : username);
      navigate(target, { replace: true });
    } catch {
      setError(MSG.network);
    } finally {
      setBusy(false);
    }
  }

  async function onResend() {
    if (!username.trim()) {
      setResend({ kind: 'error', text: MSG.resendNeedsUsername });
      return;
    }
    setResend({ kind: 'info', text: 'Sending…' });
    try {
      const res = await postJson('/api/resend_verification.php', { username });
      const data = await readJson(res);
      setResend(
        res.ok
          ? { kind: 'success', text: messageText(data) ?? MSG.resendOk }
          : { kind: 'error', text: errorText(data) ?? MSG.resendFailed },
      );
    } catch {
      setResend({ kind: 'error', text: MSG.resendNetwork });
    }
  }

  const notVerified = error.includes(MSG.notVerifiedMarker);

  return (
    <section className="page auth-page" aria-labelledby="login-title">
      <div className="card auth-card">
        <h1 id="login-title">Log in</h1>
        {params.get('verified') === '1' && (
          <Alert kind="success">Your email is verified. You can log in now.</Alert>
        )}
        <form onSubmit={onSubmit} noValidate={false}>
          <Field
            label="Username"
            name="username"
            autoComplete="username"
            required
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {error && (
            <Alert kind="error">
              {error}{' '}
              {notVerified && (
                <button type="button" className="link-button" onClick={onResend}>
                  (Resend Email)
                </button>
              )}
            </Alert>
          )}
          {resend && <Alert kind={resend.kind}>{resend.text}</Alert>}
          <button type="submit" className="button button-primary button-block" disabled={busy}>
            {busy ? 'Logging in…' : 'Log in'}
          </button>
        </form>
        <p className="auth-links">
          <Link to="/forgot-password">Forgot your password?</Link>
          <span>
            New here? <Link to="/register">Create an account</Link>
          </span>
        </p>
      </div>
    </section>
  );
}
