import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { fieldErrors, registerFields } from '../../shared/account.ts';
import { errorText, postJson, readJson } from '../api.ts';
import { MSG } from '../messages.ts';
import { Alert } from '../ui/Alert.tsx';
import { Field } from '../ui/Field.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';

export default function RegisterPage() {
  useDocumentTitle('Register');
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError('');
    // Every field's problem at once, with the server's own rules and words.
    const checked = registerFields.safeParse({ username, email, password });
    if (!checked.success) {
      setFields(fieldErrors(checked.error));
      return;
    }
    setFields({});
    setBusy(true);
    try {
      const res = await postJson('/api/register.php', { username, email, password });
      if (res.status === 201 || res.ok) {
        setDone(true);
        return;
      }
      setError(errorText(await readJson(res)) ?? MSG.registerFailed);
    } catch {
      setError(MSG.network);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="page auth-page" aria-labelledby="register-title">
      <div className="card auth-card">
        <h1 id="register-title">Create an account</h1>
        {done ? (
          <Alert kind="success">{MSG.registerOk}</Alert>
        ) : (
          <form onSubmit={onSubmit} noValidate>
            <Field
              label="Username"
              name="username"
              autoComplete="username"
              required
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              error={fields.username}
              hint="3-32 letters, digits, dots, dashes or underscores."
            />
            <Field
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              error={fields.email}
            />
            <Field
              label="Password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={fields.password}
              hint="At least 6 characters."
            />
            {error && <Alert kind="error">{error}</Alert>}
            <button type="submit" className="button button-primary button-block" disabled={busy}>
              {busy ? 'Creating your account…' : 'Register'}
            </button>
          </form>
        )}
        <p className="auth-links">
          <span>
            Already have an account? <Link to="/login">Log in</Link>
          </span>
        </p>
      </div>
    </section>
  );
}
