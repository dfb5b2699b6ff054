import { useId } from 'react';
import {
  type AdminProductionPayload,
  formatShopDay,
  HOLIDAY_COUNTRY_NAMES,
} from '../../../shared/admin-settings.ts';
import { Alert } from '../../ui/Alert.tsx';
import { useDocumentTitle } from '../../ui/useDocumentTitle.ts';
import { formatDateTime, formatHours } from '../admin-format.ts';
import { formToProduction, type ProductionForm, productionToForm, WEEKDAYS } from './production-form.ts';
import { SaveBar, SettingField } from './SettingField.tsx';
import { fieldId, useSection } from './use-section.ts';
import { useSettingsForm } from './use-settings-form.ts';

/** /admin/settings/production: what the ship-by dates are made of, and the date an order paid now gets. */
export function ProductionTab() {
  useDocumentTitle('Production · Settings · Admin');
  const section = useSection<AdminProductionPayload>('/api/admin/settings/production');
  if (section.error) return <Alert kind="error">{section.error}</Alert>;
  if (!section.data)
    return (
      <p className="loading" role="status">
        Loading the production settings…
      </p>
    );
  return <ProductionEditor loaded={section.data} onSaved={section.setData} />;
}

const TIME_ZONES: string[] =
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

function ProductionEditor({
  loaded,
  onSaved,
}: {
  loaded: AdminProductionPayload;
  onSaved: (p: AdminProductionPayload) => void;
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
    section: 'production',
    path: '/api/admin/settings/production',
    loaded,
    toForm: productionToForm,
    parse: formToProduction,
    onSaved,
    savedMessage: 'Saved. New ship-by dates follow at once; paid orders keep theirs.',
  });
  const defaults = loaded.defaults;

  /** The refusal for a field: its own ('holidays.extraDays.2' shows on that day's list). */
  const errorOf = (field: string) =>
    problem && (problem.field === field || problem.field.startsWith(`${field}.`)) ? problem.error : undefined;
  const known = [
    'printers',
    'hoursPerDay',
    'workingDays',
    'cutoff',
    'timeZone',
    'holidays.country',
    'holidays.region',
    'holidays.extraDays',
    'holidays.workingDays',
  ];
  const unplaced = problem && !known.some((k) => problem.field === k || problem.field.startsWith(`${k}.`));

  const edit = (patch: Partial<ProductionForm>) => change((f) => ({ ...f, ...patch }));

  return (
    <div className="production-layout">
      <form
        className="settings-form production-form"
        onSubmit={save}
        noValidate
        aria-labelledby="production-title"
      >
        <h2 id="production-title" className="visually-hidden">
          Production capacity
        </h2>
        <fieldset className="card settings-group">
          <legend>Capacity</legend>
          <div className="settings-grid">
            <SettingField
              id={fieldId('production', 'printers')}
              label="Printers"
              inputMode="numeric"
              help="Printers running at once."
              value={form.printers}
              onChange={(printers) => edit({ printers })}
              error={errorOf('printers')}
              defaultText={String(defaults.printers)}
            />
            <SettingField
              id={fieldId('production', 'hoursPerDay')}
              label="Printing hours a day"
              help="Hours each printer prints on a working day."
              value={form.hoursPerDay}
              onChange={(hoursPerDay) => edit({ hoursPerDay })}
              error={errorOf('hoursPerDay')}
              defaultText={String(defaults.hoursPerDay)}
            />
            <TextSetting
              id={fieldId('production', 'cutoff')}
              label="Daily cut-off"
              type="time"
              help="Orders paid before this shop-local time start production the same working day."
              value={form.cutoff}
              onChange={(cutoff) => edit({ cutoff })}
              error={errorOf('cutoff')}
            />
            <TextSetting
              id={fieldId('production', 'timeZone')}
              label="Time zone"
              help="The shop's dates and cut-off are local to it (an IANA name)."
              value={form.timeZone}
              onChange={(timeZone) => edit({ timeZone })}
              error={errorOf('timeZone')}
              list={TIME_ZONES}
            />
          </div>
          <fieldset
            className="weekdays"
            aria-describedby={errorOf('workingDays') ? fieldId('production', 'workingDays-error') : undefined}
          >
            <legend>Working days</legend>
            <div className="weekday-boxes">
              {WEEKDAYS.map(({ day, name }) => (
                <label key={day} className="field-check">
                  <input
                    type="checkbox"
                    id={day === 1 ? fieldId('production', 'workingDays') : undefined}
                    checked={form.workingDays.includes(day)}
                    onChange={(e) =>
                      edit({
                        workingDays: e.target.checked
                          ? [...form.workingDays, day]
                          : form.workingDays.filter((d) => d !== day),
                      })
                    }
                  />
                  {name}
                </label>
              ))}
            </div>
            {errorOf('workingDays') && (
              <small id={fieldId('production', 'workingDays-error')} className="field-error" role="alert">
                {errorOf('workingDays')}
              </small>
            )}
          </fieldset>
        </fieldset>

        <fieldset className="card settings-group">
          <legend>Holidays</legend>
          <div className="settings-grid">
            <div className={errorOf('holidays.country') ? 'field has-error' : 'field'}>
              <label htmlFor={fieldId('production', 'holidays.country')}>Public holidays of</label>
              <select
                id={fieldId('production', 'holidays.country')}
                value={form.country}
                onChange={(e) => edit({ country: e.target.value as ProductionForm['country'] })}
              >
                {(['US', 'CA', ''] as const).map((c) => (
                  <option key={c} value={c}>
                    {HOLIDAY_COUNTRY_NAMES[c]}
                  </option>
                ))}
              </select>
              <small className="hint">The shop closes on these public holidays (date-holidays).</small>
            </div>
            <TextSetting
              id={fieldId('production', 'holidays.region')}
              label="State or province"
              help="Two letters, like WI: adds its own holidays. Empty: the country's only."
              value={form.region}
              onChange={(region) => edit({ region })}
              error={errorOf('holidays.region')}
            />
          </div>
          <DayList
            id={fieldId('production', 'holidays.extraDays')}
            legend="Extra closure days"
            help="The shop's own closures (inventory, vacation)."
            days={form.extraDays}
            onChange={(extraDays) => edit({ extraDays })}
            error={errorOf('holidays.extraDays')}
          />
          <DayList
            id={fieldId('production', 'holidays.workingDays')}
            legend="Holidays worked"
            help="Public holidays the shop works anyway."
            days={form.workedHolidays}
            onChange={(workedHolidays) => edit({ workedHolidays })}
            error={errorOf('holidays.workingDays')}
          />
        </fieldset>
        <SaveBar
          busy={busy}
          dirty={dirty}
          status={status}
          error={unplaced && problem ? problem.error : ''}
          label="Save production"
        />
      </form>
      <section className="card ship-by-preview" aria-labelledby="ship-by-title">
        <h2 id="ship-by-title">Ship-by date</h2>
        <p className="ship-by-now" data-testid="ship-by-now">
          An order paid now ships by <strong>{formatShopDay(loaded.preview.shipBy)}</strong>.
        </p>
        <p className="hint">
          With the saved settings and the print queue as it is (
          {formatHours(loaded.preview.queueHours) || '0 h'} of printing waiting), as of{' '}
          {formatDateTime(loaded.preview.at)}. Saving shows the new date.
        </p>
        {dirty && (
          <p className="admin-marker marker-warn block">
            Not saved yet: the date above does not include your changes.
          </p>
        )}
      </section>
    </div>
  );
}

function TextSetting({
  id,
  label,
  help,
  value,
  onChange,
  error,
  type = 'text',
  list,
}: {
  id: string;
  label: string;
  help: string;
  value: string;
  onChange: (text: string) => void;
  error: string | undefined;
  type?: 'text' | 'time';
  list?: string[];
}) {
  const listId = `${id}-list`;
  return (
    <div className={error ? 'field setting-field has-error' : 'field setting-field'}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        autoComplete="off"
        list={list && list.length > 0 ? listId : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={[error ? `${id}-error` : '', `${id}-help`].filter(Boolean).join(' ')}
        onChange={(e) => onChange(e.target.value)}
      />
      {list && list.length > 0 && (
        <datalist id={listId}>
          {list.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error" role="alert">
          {error}
        </small>
      )}
      <small id={`${id}-help`} className="hint">
        {help}
      </small>
    </div>
  );
}

function DayList({
  id,
  legend,
  help,
  days,
  onChange,
  error,
}: {
  id: string;
  legend: string;
  help: string;
  days: string[];
  onChange: (days: string[]) => void;
  error: string | undefined;
}) {
  const helpId = useId();
  return (
    <fieldset
      className="day-list"
      aria-describedby={[helpId, error ? `${id}-error` : ''].filter(Boolean).join(' ')}
    >
      <legend>{legend}</legend>
      <small id={helpId} className="hint">
        {help}
      </small>
      {error && (
        <small id={`${id}-error`} className="field-error" role="alert">
          {error}
        </small>
      )}
      {days.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul>
          {days.map((day, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the days are edited in place; their order is the key.
            <li key={i} className="day-row">
              <label className="visually-hidden" htmlFor={i === 0 ? id : `${id}-${i}`}>
                {legend}, day {i + 1}
              </label>
              <input
                id={i === 0 ? id : `${id}-${i}`}
                type="date"
                value={day}
                aria-invalid={error ? true : undefined}
                onChange={(e) => onChange(days.map((d, n) => (n === i ? e.target.value : d)))}
              />
              <button
                type="button"
                className="button button-small"
                aria-label={`Remove ${legend.toLowerCase()} day ${i + 1}`}
                onClick={() => onChange(days.filter((_, n) => n !== i))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button button-small" onClick={() => onChange([...days, ''])}>
        Add a day
      </button>
    </fieldset>
  );
}
