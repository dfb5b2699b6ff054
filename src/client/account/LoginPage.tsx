import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, type Location, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ACCOUNT_MSG } from '../../shared/account.ts';
import { errorText, messageText, postJson, readJson } from '../api.ts';
import { MSG } from '../messages.ts';
import { useSession } from '../session/SessionProvider.tsx';
import { Alert } from '../ui/Alert.tsx';
import { Field } from '../ui/Field.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';

type Notice = { kind: 'error' | 'success' | 'info'; text: string };

/**
 * Where a login returns to: the page that sent the visitor here (`state.from`, a location or a path such as
 * '/#cart-section'), else the home page. Only a path on this site.
 */
function returnPath(from: unknown): string {
  let path = '/';
  if (typeof from === 'string') path = from;
  else if (from && typeof from === 'object') {
    const { pathname = '/', search = '', hash = '' } = from as Partial<Location>;
    path = `${pathname}${search}${hash}`;
  }
  return /^\/(?![/\\])/.test(path) ? path : '/';
}

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
  const formRef = useRef<HTMLFormElement>(null);
  // The page is for one thing: the cursor starts in its first field (a returning customer just types).
  useEffect(() => {
    const first = formRef.current?.elements.namedItem('username');
    if (first instanceof HTMLInputElement) first.focus();
  }, []);
  const [busy, setBusy] = useState(false);

  const target = returnPath((location.state as { from?: unknown } | null)?.from);

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
  // The step-up (the account is under attack elsewhere) is a next step to take, not a mistake of theirs.
  const stepUp = error === ACCOUNT_MSG.loginStepUp;

  return (
    <section className="page auth-page" aria-labelledby="login-title">
      <div className="card auth-card">
        <h1 id="login-title">Log in</h1>
        {params.get('verified') === '1' && (
          <Alert kind="success">Your email is verified. You can log in now.</Alert>
        )}
        <form ref={formRef} onSubmit={onSubmit} noValidate={false}>
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
            <Alert kind={stepUp ? 'info' : 'error'}>
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
