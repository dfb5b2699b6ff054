import { type FormEvent, useMemo, useState } from 'react';
import {
  type AdminPricingPayload,
  INFILL_HELP,
  PRICING_FIELDS,
  TIERS_HELP,
} from '../../../shared/admin-settings.ts';
import { STRENGTHS } from '../../../shared/catalog.ts';
import { Alert } from '../../ui/Alert.tsx';
import { useDocumentTitle } from '../../ui/useDocumentTitle.ts';
import type { FieldProblem } from './form-numbers.ts';
import { PricingPreview } from './PricingPreview.tsx';
import {
  fieldText,
  formToPricing,
  newTierRow,
  type PricingForm,
  pricingToForm,
  type TierRow,
} from './pricing-form.ts';
import { SaveBar, SettingField } from './SettingField.tsx';
import { saveSettings } from './settings-api.ts';
import { fieldId, focusField, sameValues, useSection } from './use-section.ts';

const MAX_TIERS = 20;

/** /admin/settings/pricing: every price constant, the quantity tiers and a live preview of their effect. */
export function PricingTab() {
  useDocumentTitle('Pricing · Settings · Admin');
  const section = useSection<AdminPricingPayload>('/api/admin/settings/pricing');
  if (section.error) return <Alert kind="error">{section.error}</Alert>;
  if (!section.data)
    return (
      <p className="loading" role="status">
        Loading the pricing…
      </p>
    );
  return <PricingEditor loaded={section.data} onSaved={section.setData} />;
}

function PricingEditor({
  loaded,
  onSaved,
}: {
  loaded: AdminPricingPayload;
  onSaved: (p: AdminPricingPayload) => void;
}) {
  const [form, setForm] = useState<PricingForm>(() => pricingToForm(loaded.values));
  const [serverProblem, setServerProblem] = useState<FieldProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [savedAt, setSavedAt] = useState(0);

  const parsed = useMemo(() => formToPricing(form), [form]);
  const values = 'values' in parsed ? parsed.values : null;
  const problem: FieldProblem | null = 'values' in parsed ? serverProblem : parsed;
  const dirty = !values || !sameValues(values, loaded.values);
  const errorOf = (field: string) => (problem?.field === field ? problem.error : undefined);
  const defaults = loaded.defaults;

  function edit(change: (f: PricingForm) => PricingForm) {
    setForm((f) => change(f));
    setServerProblem(null);
    setStatus('');
  }
  const setField = (field: string) => (text: string) =>
    edit((f) => ({ ...f, fields: { ...f.fields, [field]: text } }));
  const setTier = (key: number, part: 'minQuantity' | 'percent', text: string) =>
    edit((f) => ({ ...f, tiers: f.tiers.map((t) => (t.key === key ? { ...t, [part]: text } : t)) }));

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!values) {
      focusField('pricing', problem?.field ?? null);
      return;
    }
    setBusy(true);
    setStatus('');
    const result = await saveSettings<AdminPricingPayload, '/api/admin/settings/pricing'>(
      '/api/admin/settings/pricing',
      { values },
    );
    setBusy(false);
    if (!result.ok) {
      setServerProblem({ field: result.field ?? '', error: result.error });
      focusField('pricing', result.field);
      return;
    }
    onSaved(result.data);
    setForm(pricingToForm(result.data.values));
    setSavedAt(Date.now());
    setStatus('Saved. New quotes use these prices now; placed orders keep theirs.');
  }

  // A refusal about no input of the form (or the tiers as a whole) shows by the Save button.
  const fieldKnown =
    problem &&
    (Object.hasOwn(form.fields, problem.field) ||
      /^quantityTiers\.\d+\.(minQuantity|percent)$/.test(problem.field));
  const tiersError = problem?.field === 'quantityTiers' ? problem.error : undefined;

  return (
    // The preview sits after the constants: beside the whole form on a wide screen, right under the
    // constants (what one types most) on a tablet.
    <form className="settings-form pricing-layout" onSubmit={save} noValidate aria-labelledby="pricing-title">
      <h2 id="pricing-title" className="visually-hidden">
        Pricing
      </h2>
      <fieldset className="card settings-group">
        <legend>Price constants</legend>
        <p className="hint settings-group-help">
          Unit price = the larger of the minimum and setup fee + grams x price per gram + hours x machine
          rate.
        </p>
        <div className="settings-grid">
          {PRICING_FIELDS.map((f) => (
            <SettingField
              key={f.key}
              id={fieldId('pricing', f.key)}
              label={f.label}
              unit={f.unit}
              help={f.help}
              value={form.fields[f.key] ?? ''}
              onChange={setField(f.key)}
              error={errorOf(f.key)}
              defaultText={fieldText(defaults, f.key)}
            />
          ))}
        </div>
      </fieldset>

      <PricingPreview values={values} problem={problem} savedAt={savedAt} onProblem={setServerProblem} />

      <fieldset className="card settings-group" aria-describedby="infill-help">
        <legend>Infill by strength (%)</legend>
        <p id="infill-help" className="hint settings-group-help">
          {INFILL_HELP}
        </p>
        <div className="settings-grid infill-grid">
          {STRENGTHS.map((s) => {
            const key = `infillByStrength.${s.level}`;
            return (
              <SettingField
                key={key}
                id={fieldId('pricing', key)}
                label={`${s.label} (${s.level}/5)`}
                value={form.fields[key] ?? ''}
                onChange={setField(key)}
                error={errorOf(key)}
                defaultText={fieldText(defaults, key)}
              />
            );
          })}
        </div>
      </fieldset>

      <TiersEditor
        tiers={form.tiers}
        error={tiersError}
        errorOf={errorOf}
        onChange={setTier}
        onAdd={() => {
          const last = form.tiers.at(-1);
          edit((f) => ({
            ...f,
            tiers: [...f.tiers, newTierRow(last ? String(Number(last.minQuantity) * 2 || '') : '10', '')],
          }));
        }}
        onRemove={(key) => edit((f) => ({ ...f, tiers: f.tiers.filter((t) => t.key !== key) }))}
        onDefault={() => edit((f) => ({ ...f, tiers: pricingToForm(defaults).tiers }))}
        isDefault={values ? sameValues(values.quantityTiers, defaults.quantityTiers) : false}
      />

      <SaveBar
        busy={busy}
        dirty={dirty}
        status={status}
        error={problem && !fieldKnown && problem.field !== 'quantityTiers' ? problem.error : ''}
        label="Save pricing"
      />
    </form>
  );
}

function TiersEditor({
  tiers,
  error,
  errorOf,
  onChange,
  onAdd,
  onRemove,
  onDefault,
  isDefault,
}: {
  tiers: TierRow[];
  error: string | undefined;
  errorOf: (field: string) => string | undefined;
  onChange: (key: number, part: 'minQuantity' | 'percent', text: string) => void;
  onAdd: () => void;
  onRemove: (key: number) => void;
  onDefault: () => void;
  isDefault: boolean;
}) {
  return (
    <fieldset
      className="card settings-group tiers"
      aria-describedby={error ? 'tiers-help tiers-error' : 'tiers-help'}
    >
      <legend>Quantity discounts</legend>
      <p id="tiers-help" className="hint settings-group-help">
        {TIERS_HELP} The best tier a line reaches applies; a piece never goes below the minimum price.
      </p>
      {error && (
        <p id="tiers-error" className="field-error" role="alert">
          {error}
        </p>
      )}
      {tiers.length === 0 ? (
        <p className="muted">No quantity discounts: every piece costs its unit price.</p>
      ) : (
        <ol className="tier-rows">
          {tiers.map((t, i) => {
            const at = `quantityTiers.${i}`;
            return (
              <li key={t.key} className="tier-row">
                <SettingField
                  id={fieldId('pricing', `${at}.minQuantity`)}
                  label={`Tier ${i + 1}: from`}
                  unit="pieces"
                  inputMode="numeric"
                  value={t.minQuantity}
                  onChange={(text) => onChange(t.key, 'minQuantity', text)}
                  error={errorOf(`${at}.minQuantity`)}
                />
                <SettingField
                  id={fieldId('pricing', `${at}.percent`)}
                  label={`Tier ${i + 1}: off`}
                  unit="%"
                  value={t.percent}
                  onChange={(text) => onChange(t.key, 'percent', text)}
                  error={errorOf(`${at}.percent`)}
                />
                <button
                  type="button"
                  className="button button-small tier-remove"
                  aria-label={`Remove tier ${i + 1}`}
                  onClick={() => onRemove(t.key)}
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ol>
      )}
      <div className="button-row">
        <button
          type="button"
          className="button button-small"
          onClick={onAdd}
          disabled={tiers.length >= MAX_TIERS}
        >
          Add a tier
        </button>
        {!isDefault && (
          <button type="button" className="link-button" onClick={onDefault}>
            Use the default tiers
          </button>
        )}
      </div>
    </fieldset>
  );
}
