import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ACCOUNT_MSG } from '../../shared/account.ts';
import { errorText, postJson, readJson } from '../api.ts';
import { MSG } from '../messages.ts';
import { useSession } from '../session/SessionProvider.tsx';
import { Alert } from '../ui/Alert.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';

// The step-up's mailed link (/sign-in?token=, docs/security.md 6). Opening it uses nothing up: mail scanners
// open links, some running their scripts too, so the token is sent only when the customer presses the button.

function InvalidLink({ reason }: { reason: string }) {
  return (
    <section className="page auth-page" aria-labelledby="sign-in-title">
      <div className="card auth-card">
        <h1 id="sign-in-title">This sign-in link is not valid</h1>
        <Alert kind="error">{reason}</Alert>
        <p>
          A sign-in link works once, for 15 minutes, and only the newest one mailed works. Log in again: if a
          link is still needed, a new one is mailed to you.
        </p>
        <p className="auth-links">
          <Link to="/login">Go to the login page</Link>
        </p>
      </div>
    </section>
  );
}

export default function SignInLinkPage() {
  useDocumentTitle('Log in with your link');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const session = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [invalid, setInvalid] = useState(token ? '' : ACCOUNT_MSG.signInLinkFailed);

  async function onSignIn() {
    setError('');
    setBusy(true);
    try {
      const res = await postJson('/api/sign-in-link', { token });
      const data = await readJson(res);
      if (res.status === 400) {
        setInvalid(errorText(data) ?? ACCOUNT_MSG.signInLinkFailed);
        return;
      }
      if (!res.ok) {
        setError(errorText(data) ?? MSG.loginFailed);
        return;
      }
      await session.loggedIn(typeof data.username === 'string' ? data.username : '');
      navigate('/', { replace: true });
    } catch {
      setError(MSG.network);
    } finally {
      setBusy(false);
    }
  }

  if (invalid) return <InvalidLink reason={invalid} />;

  return (
    <section className="page auth-page" aria-labelledby="sign-in-title">
      <div className="card auth-card">
        <h1 id="sign-in-title">Log in with your link</h1>
        <p>This logs you in on this browser, which is then trusted for your account from now on.</p>
        {error && <Alert kind="error">{error}</Alert>}
        <button
          type="button"
          className="button button-primary button-block"
          disabled={busy}
          onClick={onSignIn}
        >
          {busy ? 'Logging in…' : 'Log in on this browser'}
        </button>
      </div>
    </section>
  );
}
