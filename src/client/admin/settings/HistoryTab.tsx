import { useState } from 'react';
import {
  type AdminSettingsHistoryPayload,
  PRICING_FIELDS,
  type SettingsChange,
  sectionName,
  settingLabel,
  toShown,
} from '../../../shared/admin-settings.ts';
import { formatCents } from '../../../shared/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { useDocumentTitle } from '../../ui/useDocumentTitle.ts';
import { formatDateTime } from '../admin-format.ts';
import { useSection } from './use-section.ts';

const SECTIONS = [
  ['', 'All sections'],
  ['pricing', 'Pricing'],
  ['shipping', 'Shipping'],
  ['production', 'Production'],
  ['shop', 'Shop'],
] as const;

/** A stored number as the panel shows it, when that differs: '$2.50' for 250 cents, '25 %' for 0.25. */
export function shownText(section: string, key: string, value: unknown): string {
  if (section !== 'pricing' || typeof value !== 'number') return '';
  const field = PRICING_FIELDS.find((f) => f.key === key);
  if (field?.shown === 'dollars') return `= ${formatCents(value)}`;
  if (key.startsWith('infillByStrength.')) return `= ${toShown('percent', value)} %`;
  return '';
}

/** A stored value as text: numbers and words as they are, lists and objects as JSON. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? "''" : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** /admin/settings/history: who changed which setting when, old and new value, newest first. */
export function HistoryTab() {
  useDocumentTitle('History · Settings · Admin');
  const [page, setPage] = useState(1);
  const [section, setSection] = useState('');
  const query = `page=${page}${section ? `&section=${section}` : ''}`;
  const history = useSection<AdminSettingsHistoryPayload>(`/api/admin/settings/history?${query}`);
  const data = history.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <section className="settings-history" aria-labelledby="history-title">
      <div className="admin-title-row">
        <h2 id="history-title">Changes to the settings</h2>
        <div className="field history-filter">
          <label htmlFor="history-section">Section</label>
          <select
            id="history-section"
            value={section}
            onChange={(e) => {
              setSection(e.target.value);
              setPage(1);
            }}
          >
            {SECTIONS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {history.error && <Alert kind="error">{history.error}</Alert>}
      {!data && !history.error && (
        <p className="loading" role="status">
          Loading the history…
        </p>
      )}
      {data && data.changes.length === 0 && <p className="empty">No setting has been changed yet.</p>}
      {data && data.changes.length > 0 && (
        <div className="admin-table-wrap">
          <table className="admin-table history-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Setting</th>
                <th scope="col">Old</th>
                <th scope="col">New</th>
              </tr>
            </thead>
            <tbody>
              {data.changes.map((c) => (
                <ChangeRow key={c.id} change={c} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && pages > 1 && (
        <nav className="admin-pages" aria-label="History pages">
          <button
            type="button"
            className="button button-small"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
          >
            Newer
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button
            type="button"
            className="button button-small"
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
          >
            Older
          </button>
        </nav>
      )}
    </section>
  );
}

function ChangeRow({ change }: { change: SettingsChange }) {
  return (
    <tr>
      <td className="history-when">
        <time dateTime={change.changedAt}>{formatDateTime(change.changedAt)}</time>
      </td>
      <td>{change.changedBy ?? <span className="muted">outside the panel</span>}</td>
      <td>
        <span className="history-section">{sectionName(change.section)}</span>
        <span className="history-key">{settingLabel(change.section, change.key)}</span>
        <span className="hint mono">{change.key}</span>
      </td>
      <td>
        <Value section={change.section} settingKey={change.key} value={change.oldValue} />
      </td>
      <td>
        <Value section={change.section} settingKey={change.key} value={change.newValue} />
      </td>
    </tr>
  );
}

function Value({ section, settingKey, value }: { section: string; settingKey: string; value: unknown }) {
  const shown = shownText(section, settingKey, value);
  return (
    <>
      <code className="history-value">{valueText(value)}</code>
      {shown && <span className="shown">{shown}</span>}
    </>
  );
}
