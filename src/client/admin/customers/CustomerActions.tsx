import { useState } from 'react';
import type { AdminCustomerChanged, AdminCustomerDetail } from '../../../shared/admin-customers.ts';
import { formatCount } from '../../../shared/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { type Result, send } from '../admin-api.ts';
import { ActionError, Panel } from '../admin-ui.tsx';
import { useAction } from '../use-action.ts';
import { customerActions, customerPath } from './customers-query.ts';

// What staff may change on an account. Each button waits with "Saving…" and shows the server's refusal
// beside itself; revoking admin access and disabling ask first, saying what follows.

type Props = { detail: AdminCustomerDetail; onChange: (d: AdminCustomerDetail) => void };
type Changed = (result: AdminCustomerChanged) => void;

export function CustomerActionsPanel({ detail, onChange }: Props) {
  const [done, setDone] = useState('');
  const actions = customerActions(detail);
  const c = detail.customer;
  const changed: Changed = (result) => {
    setDone(result.message);
    onChange(result.detail);
  };

  return (
    <Panel title="Actions" id="actions-title" className="customer-actions">
      {done && <Alert kind="success">{done}</Alert>}

      <div className="customer-action">
        <h3>Email address</h3>
        {actions.verify ? (
          <>
            <p className="muted">Not verified: the customer cannot log in until it is.</p>
            <div className="action-buttons">
              <SimpleAction
                label="Mark verified"
                call={() => send(`${customerPath(c.id)}/verify`, { value: true })}
                onDone={changed}
              />
              <SimpleAction
                label="Resend verification mail"
                call={() => send(`${customerPath(c.id)}/resend-verification`, {})}
                onDone={changed}
              />
            </div>
          </>
        ) : (
          <p className="muted">Verified.</p>
        )}
      </div>

      <div className="customer-action">
        <h3>Admin access</h3>
        {actions.admin === 'grant' ? (
          <>
            <p className="muted">A customer: no access to this panel.</p>
            <SimpleAction
              label="Make admin"
              call={() => send(`${customerPath(c.id)}/admin`, { value: true })}
              onDone={changed}
            />
          </>
        ) : actions.admin === 'revoke' ? (
          <Confirmed
            label="Revoke admin…"
            question={`Revoke ${c.username}'s admin access?`}
            consequence="From their next click on, they can no longer open this panel."
            confirm="Revoke admin access"
            keep="Keep them an admin"
            call={() => send(`${customerPath(c.id)}/admin`, { value: false })}
            onDone={changed}
          />
        ) : (
          <p className="muted">You are an admin. Another admin can revoke your access; you cannot.</p>
        )}
      </div>

      <div className="customer-action">
        <h3>Account</h3>
        {actions.account === 'enable' ? (
          <>
            <p className="muted">Disabled: the customer cannot log in.</p>
            <SimpleAction
              label="Enable account"
              call={() => send(`${customerPath(c.id)}/disable`, { value: false })}
              onDone={changed}
            />
          </>
        ) : actions.account === 'disable' ? (
          <Confirmed
            label="Disable account…"
            question={`Disable ${c.username}'s account?`}
            consequence={[
              c.openSessions > 0
                ? `Their ${formatCount(c.openSessions, 'session ends', 'sessions end')} at once`
                : 'They are logged out everywhere',
              'they cannot log in (they are told to contact the shop)',
              actions.openCheckouts > 0
                ? `and their ${formatCount(actions.openCheckouts, 'open checkout is', 'open checkouts are')} cancelled.`
                : 'and any open checkout is cancelled.',
            ].join(', ')}
            note="Paid orders are not touched. You can enable the account again."
            confirm="Disable the account"
            keep="Keep it enabled"
            call={() => send(`${customerPath(c.id)}/disable`, { value: true })}
            onDone={changed}
          />
        ) : (
          <p className="muted">Your own account cannot be disabled from here.</p>
        )}
      </div>
    </Panel>
  );
}

type Call = () => Promise<Result<AdminCustomerChanged>>;

function SimpleAction({ label, call, onDone }: { label: string; call: Call; onDone: Changed }) {
  const action = useAction();
  async function run() {
    const result = await action.run(call);
    if (result) onDone(result);
  }
  return (
    <div className="action-row">
      <button type="button" className="button button-small" disabled={action.busy} onClick={run}>
        {action.busy ? 'Saving…' : label}
      </button>
      <ActionError error={action.error} />
    </div>
  );
}

function Confirmed({
  label,
  question,
  consequence,
  note,
  confirm,
  keep,
  call,
  onDone,
}: {
  label: string;
  question: string;
  consequence: string;
  note?: string;
  confirm: string;
  keep: string;
  call: Call;
  onDone: Changed;
}) {
  const action = useAction();
  const [asking, setAsking] = useState(false);

  async function run() {
    const result = await action.run(call);
    if (result) {
      setAsking(false);
      onDone(result);
    }
  }

  if (!asking) {
    return (
      <div className="action-row">
        <button
          type="button"
          className="button button-small button-danger"
          onClick={() => {
            action.clear();
            setAsking(true);
          }}
        >
          {label}
        </button>
      </div>
    );
  }
  return (
    <fieldset className="cancel-confirm customer-confirm">
      <legend>
        <strong>{question}</strong>
      </legend>
      <p>{consequence}</p>
      {note && <p className="muted">{note}</p>}
      <div className="button-row">
        <button type="button" className="button button-danger" disabled={action.busy} onClick={run}>
          {action.busy ? 'Saving…' : confirm}
        </button>
        <button type="button" className="button" disabled={action.busy} onClick={() => setAsking(false)}>
          {keep}
        </button>
      </div>
      <ActionError error={action.error} />
    </fieldset>
  );
}
