import type { AdminShippingPayload } from '../../../shared/admin-settings.ts';
import { formatCents } from '../../../shared/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { useDocumentTitle } from '../../ui/useDocumentTitle.ts';
import { SaveBar, SettingField } from './SettingField.tsx';
import {
  type Country,
  formToShipping,
  type MethodRow,
  newMethodRow,
  shippingToForm,
} from './shipping-form.ts';
import { fieldId, useSection } from './use-section.ts';
import { useSettingsForm } from './use-settings-form.ts';

const COUNTRIES: { code: Country; name: string }[] = [
  { code: 'US', name: 'United States' },
  { code: 'CA', name: 'Canada' },
];
const MAX_METHODS = 10;

/** /admin/settings/shipping: each country's shipping methods, in the order the checkout offers them. */
export function ShippingTab() {
  useDocumentTitle('Shipping · Settings · Admin');
  const section = useSection<AdminShippingPayload>('/api/admin/settings/shipping');
  if (section.error) return <Alert kind="error">{section.error}</Alert>;
  if (!section.data)
    return (
      <p className="loading" role="status">
        Loading the shipping methods…
      </p>
    );
  return <ShippingEditor loaded={section.data} onSaved={section.setData} />;
}

function ShippingEditor({
  loaded,
  onSaved,
}: {
  loaded: AdminShippingPayload;
  onSaved: (p: AdminShippingPayload) => void;
}) {
  const {
    form,
    edit: change,
    problem,
    busy,
    status,
    dirty,
    save,
  } = useSettingsForm({
    section: 'shipping',
    path: '/api/admin/settings/shipping',
    loaded,
    toForm: shippingToForm,
    parse: formToShipping,
    onSaved,
    savedMessage: 'Saved. The cart and the checkout offer these methods now; placed orders keep theirs.',
    focusOf: focusTarget,
  });

  const edit = (country: Country, rows: (rows: MethodRow[]) => MethodRow[]) =>
    change((f) => ({ ...f, [country]: rows(f[country]) }));

  const shownAt = (field: string) => problem !== null && problemAt(problem.field) === field;
  const placed = problem ? problemAt(problem.field) : '';

  return (
    <form className="settings-form shipping-form" onSubmit={save} noValidate aria-labelledby="shipping-title">
      <h2 id="shipping-title" className="visually-hidden">
        Shipping methods
      </h2>
      <p className="hint settings-intro">
        The first method of a country is preselected at checkout. A method is free once the items reach its
        “free from” amount; leave it empty for never.
      </p>
      {COUNTRIES.map(({ code, name }) => (
        <fieldset key={code} className="card settings-group shipping-country">
          <legend>
            {name}
            {loaded.overridden.includes(code) ? (
              <span className="admin-marker marker-public">Changed from the defaults</span>
            ) : null}
          </legend>
          {shownAt(code) && (
            <p className="field-error" role="alert" id={fieldId('shipping', `${code}-error`)}>
              {problem?.error}
            </p>
          )}
          <ol className="method-rows">
            {form[code].map((row, i) => (
              <MethodEditor
                key={row.key}
                country={code}
                index={i}
                count={form[code].length}
                row={row}
                errorOf={(part) => (shownAt(`${code}.${i}.${part}`) ? problem?.error : undefined)}
                onChange={(next) => edit(code, (rows) => rows.map((r) => (r.key === row.key ? next : r)))}
                onRemove={() => edit(code, (rows) => rows.filter((r) => r.key !== row.key))}
                onUp={() =>
                  edit(code, (rows) => {
                    const copy = [...rows];
                    [copy[i - 1], copy[i]] = [copy[i]!, copy[i - 1]!];
                    return copy;
                  })
                }
              />
            ))}
          </ol>
          <div className="button-row">
            <button
              type="button"
              className="button button-small"
              disabled={form[code].length >= MAX_METHODS}
              onClick={() => edit(code, (rows) => [...rows, newMethodRow()])}
            >
              Add a method
            </button>
            <button
              type="button"
              className="link-button"
              onClick={() => edit(code, () => shippingToForm(loaded.defaults)[code])}
            >
              Use the default methods
            </button>
          </div>
        </fieldset>
      ))}
      <SaveBar
        busy={busy}
        dirty={dirty}
        status={status}
        error={problem && placed === '' ? problem.error : ''}
        label="Save shipping"
      />
      <p className="hint">
        Defaults: {loaded.defaults.US.map((m) => `${m.name} ${formatCents(m.priceCents)}`).join(', ')};{' '}
        {loaded.defaults.CA.map((m) => `${m.name} ${formatCents(m.priceCents)}`).join(', ')}.
      </p>
    </form>
  );
}

/** Where a refusal shows: a method's input ('US.0.priceCents'), the transit days, a country, or the Save button. */
function problemAt(field: string): string {
  const m = /^(US|CA)(?:\.(\d+)(?:\.(name|priceCents|freeFromCents|transitDays|id)(?:\.(min|max))?)?)?/.exec(
    field,
  );
  if (!m) return '';
  if (m[2] === undefined) return m[1]!;
  const part = m[3] === 'transitDays' ? 'transitDays' : (m[3] ?? 'name');
  return `${m[1]}.${m[2]}.${part === 'id' ? 'name' : part}`;
}

function focusTarget(field: string | null): string | null {
  if (!field) return null;
  const at = problemAt(field);
  if (/\.transitDays$/.test(at)) return `${at}.min`;
  return at || null;
}

function MethodEditor({
  country,
  index,
  count,
  row,
  errorOf,
  onChange,
  onRemove,
  onUp,
}: {
  country: Country;
  index: number;
  count: number;
  row: MethodRow;
  errorOf: (part: string) => string | undefined;
  onChange: (row: MethodRow) => void;
  onRemove: () => void;
  onUp: () => void;
}) {
  const at = `${country}.${index}`;
  const id = (part: string) => fieldId('shipping', `${at}.${part}`);
  const title = row.name.trim() || 'New method';
  const transitError = errorOf('transitDays');
  return (
    <li className="method-row">
      <fieldset className="method">
        <legend>
          Method {index + 1}: {title}
        </legend>
        <div className="method-fields">
          <SettingField
            id={id('name')}
            className="method-name"
            label="Name"
            inputMode="text"
            value={row.name}
            onChange={(name) => onChange({ ...row, name })}
            error={errorOf('name')}
          />
          <SettingField
            id={id('priceCents')}
            label="Price"
            unit="$"
            value={row.price}
            onChange={(price) => onChange({ ...row, price })}
            error={errorOf('priceCents')}
          />
          <SettingField
            id={id('transitDays.min')}
            label="Transit from"
            unit="days"
            inputMode="numeric"
            value={row.transitMin}
            onChange={(transitMin) => onChange({ ...row, transitMin })}
            error={transitError}
          />
          <SettingField
            id={id('transitDays.max')}
            label="Transit to"
            unit="days"
            inputMode="numeric"
            value={row.transitMax}
            onChange={(transitMax) => onChange({ ...row, transitMax })}
          />
          <SettingField
            id={id('freeFromCents')}
            label="Free from"
            unit="$"
            value={row.freeFrom}
            onChange={(freeFrom) => onChange({ ...row, freeFrom })}
            error={errorOf('freeFromCents')}
          />
        </div>
        <div className="method-actions">
          {index > 0 && (
            <button
              type="button"
              className="button button-small"
              onClick={onUp}
              aria-label={`Move ${title} up`}
            >
              Move up
            </button>
          )}
          <button
            type="button"
            className="button button-small button-danger"
            onClick={onRemove}
            disabled={count <= 1}
            aria-label={`Remove ${title}`}
          >
            Remove
          </button>
          {row.id && <span className="hint mono">id {row.id}</span>}
        </div>
      </fieldset>
    </li>
  );
}
