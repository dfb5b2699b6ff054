import { useEffect, useId, useState } from 'react';
import {
  type AdminPricingPreviewPayload,
  PREVIEW_QUANTITIES,
  PREVIEW_SAMPLES,
  type PreviewPrice,
  type PricingValues,
} from '../../../shared/admin-settings.ts';
import { STRENGTHS } from '../../../shared/catalog.ts';
import { formatCents, formatDimensions, formatVolume } from '../../../shared/format.ts';
import type { FieldProblem } from './form-numbers.ts';
import { previewPricing } from './settings-api.ts';

// The live preview: a sample priced at every strength and 1, 10 and 50 pieces with the prices in force (Now)
// and with the values typed (New), asked of the server's own price function a moment after the last key.

const MODEL = 'model';
const DEBOUNCE_MS = 300;

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; data: AdminPricingPreviewPayload }
  | { kind: 'error'; error: string }
  /** The server refused a value: its sentence shows beside the field. */
  | { kind: 'refused' };

export function PricingPreview({
  values,
  problem,
  savedAt,
  onProblem,
}: {
  values: PricingValues | null;
  problem: FieldProblem | null;
  savedAt: number;
  onProblem: (p: FieldProblem) => void;
}) {
  const id = useId();
  const [choice, setChoice] = useState<string>('block');
  const [modelId, setModelId] = useState('');
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [last, setLast] = useState<AdminPricingPreviewPayload | null>(null);
  const [sampleError, setSampleError] = useState('');
  const sample = choice === MODEL ? modelId.trim() : choice;

  // `values` is a new object only when the form changed (PricingTab's useMemo).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `savedAt` asks again after a save (Now moved).
  useEffect(() => {
    if (!values || !sample) return;
    const controller = new AbortController();
    setState({ kind: 'loading' });
    const timer = setTimeout(async () => {
      const result = await previewPricing<AdminPricingPreviewPayload>({ values, sample }, controller.signal);
      if (controller.signal.aborted) return;
      if (result.ok) {
        setState({ kind: 'ready', data: result.data });
        setLast(result.data);
        setSampleError('');
      } else if (result.field === 'sample' || result.status === 404) {
        setSampleError(result.error);
        setState({ kind: 'error', error: result.error });
      } else {
        if (result.field !== null) {
          onProblem({ field: result.field, error: result.error });
          setState({ kind: 'refused' });
        } else setState({ kind: 'error', error: result.error });
      }
    }, DEBOUNCE_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [values, sample, savedAt, onProblem]);

  const shown = state.kind === 'ready' ? state.data : last;
  const note =
    !values || state.kind === 'refused'
      ? 'The preview waits for the field marked in red.'
      : !sample
        ? 'Type the id of a stored model (it is in the model’s download link on an order’s page).'
        : state.kind === 'loading'
          ? 'Updating the preview…'
          : state.kind === 'error'
            ? state.error
            : 'Now: the prices in force. New: with the values on this page, not saved yet.';

  return (
    <section className="card pricing-preview" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Preview</h2>
      <div className="preview-sample">
        <div className="field">
          <label htmlFor={`${id}-sample`}>Sample</label>
          <select
            id={`${id}-sample`}
            value={choice}
            onChange={(e) => {
              setChoice(e.target.value);
              setSampleError('');
            }}
          >
            {PREVIEW_SAMPLES.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
            <option value={MODEL}>A stored model (by its id)</option>
          </select>
        </div>
        {choice === MODEL && (
          <div className={sampleError ? 'field has-error' : 'field'}>
            <label htmlFor={`${id}-model`}>Model id</label>
            <input
              id={`${id}-model`}
              type="text"
              className="mono"
              placeholder="m_…"
              autoComplete="off"
              spellCheck={false}
              value={modelId}
              aria-invalid={sampleError ? true : undefined}
              aria-describedby={sampleError ? `${id}-model-error` : undefined}
              onChange={(e) => {
                setModelId(e.target.value);
                setSampleError('');
              }}
              // The preview is inside the pricing form: Enter here asks for nothing to be saved.
              onKeyDown={(e) => {
                if (e.key === 'Enter') e.preventDefault();
              }}
            />
            {sampleError && (
              <small id={`${id}-model-error`} className="field-error" role="alert">
                {sampleError}
              </small>
            )}
          </div>
        )}
      </div>
      {shown && (
        <p className="hint preview-measures">
          {shown.sample.label}: {formatDimensions(shown.sample.dimensions)},{' '}
          {formatVolume(shown.sample.volumeCm3)}
        </p>
      )}
      <p className="preview-note" role="status" data-state={state.kind}>
        {note}
      </p>
      {shown && <PreviewTable data={shown} stale={state.kind !== 'ready' || !values || problem !== null} />}
    </section>
  );
}

function Delta({ before, after }: { before: number; after: number }) {
  if (before === after) return null;
  const up = after > before;
  return (
    <span className={up ? 'delta up' : 'delta down'}>
      {up ? '+' : '−'}
      {formatCents(Math.abs(after - before))}
    </span>
  );
}

function Price({ p, part }: { p: PreviewPrice; part: 'unit' | 'line' }) {
  const cents = part === 'unit' ? p.unitCents : p.lineCents;
  return (
    <>
      {formatCents(cents)}
      {part === 'unit' && p.minimumApplied && <span className="price-tag">minimum</span>}
      {part === 'line' && p.discountPercent > 0 && (
        <span className="price-tag">{p.discountPercent} % off</span>
      )}
    </>
  );
}

function PreviewTable({ data, stale }: { data: AdminPricingPreviewPayload; stale: boolean }) {
  return (
    <div className="admin-table-wrap preview-wrap" aria-busy={stale ? true : undefined}>
      <table className="admin-table preview-table">
        <caption className="visually-hidden">
          Prices of {data.sample.label} now and with the values on this page
        </caption>
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>
              Strength
            </th>
            <th scope="col" rowSpan={2} className="num">
              Pieces
            </th>
            <th scope="colgroup" colSpan={2} className="group">
              Unit price
            </th>
            <th scope="colgroup" colSpan={2} className="group">
              Line total
            </th>
          </tr>
          <tr>
            <th scope="col" className="num">
              Now
            </th>
            <th scope="col" className="num">
              New
            </th>
            <th scope="col" className="num">
              Now
            </th>
            <th scope="col" className="num">
              New
            </th>
          </tr>
        </thead>
        {STRENGTHS.map((s) => {
          const rows = data.rows.filter((r) => r.strength === s.level);
          return (
            <tbody key={s.level}>
              {rows.map((r, i) => (
                <tr key={r.quantity} data-row={`${s.level}-${r.quantity}`}>
                  {i === 0 && (
                    <th scope="rowgroup" rowSpan={PREVIEW_QUANTITIES.length}>
                      {s.label} <span className="level">{s.level}/5</span>
                    </th>
                  )}
                  <td className="num">{r.quantity}</td>
                  <td className="num" data-testid={`now-unit-${s.level}-${r.quantity}`}>
                    <Price p={r.before} part="unit" />
                  </td>
                  <td
                    className={r.after.unitCents !== r.before.unitCents ? 'num new changed' : 'num new'}
                    data-testid={`new-unit-${s.level}-${r.quantity}`}
                  >
                    <Price p={r.after} part="unit" />
                    <Delta before={r.before.unitCents} after={r.after.unitCents} />
                  </td>
                  <td className="num">
                    <Price p={r.before} part="line" />
                  </td>
                  <td
                    className={r.after.lineCents !== r.before.lineCents ? 'num new changed' : 'num new'}
                    data-testid={`new-line-${s.level}-${r.quantity}`}
                  >
                    <Price p={r.after} part="line" />
                    <Delta before={r.before.lineCents} after={r.after.lineCents} />
                  </td>
                </tr>
              ))}
            </tbody>
          );
        })}
      </table>
    </div>
  );
}
