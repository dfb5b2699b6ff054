import { type ReactNode, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { AdminDashboard } from '../../../shared/admin-dashboard.ts';
import { formatCents } from '../../../shared/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { useDocumentTitle } from '../../ui/useDocumentTitle.ts';
import { load } from '../admin-api.ts';
import { Panel, StatusBadge } from '../admin-ui.tsx';
import { OrdersChart, RankChart, RevenueChart } from './DashboardCharts.tsx';
import {
  colorRows,
  cutoffText,
  dayLabel,
  headline,
  periodText,
  queueText,
  readWeeks,
  statusRows,
  strengthRows,
  testOrdersNote,
  WEEK_CHOICES,
  weekLabel,
  weekRows,
} from './dashboard-view.ts';
import { NumbersTable } from './NumbersTable.tsx';
import './dashboard.css';

/**
 * /admin/dashboard (its own chunk, with the charting library): how the shop is doing in the last weeks
 * (?weeks=, 12 by default), the print queue and the orders that will ship late.
 */
export default function DashboardPage() {
  useDocumentTitle('Dashboard');
  const [params, setParams] = useSearchParams();
  const weeks = readWeeks(params);
  const [figures, setFigures] = useState<AdminDashboard | null>(null);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    load<AdminDashboard>(`/api/admin/dashboard?weeks=${weeks}`, controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      setLoading(false);
      if (result.ok) {
        setFigures(result.data);
        setError('');
      } else {
        setError(result.error);
      }
    });
    return () => controller.abort();
  }, [weeks]);

  const choices = (WEEK_CHOICES as readonly number[]).includes(weeks)
    ? WEEK_CHOICES
    : [...WEEK_CHOICES, weeks].sort((a, b) => a - b);

  return (
    <div className="admin-dashboard" aria-busy={loading}>
      <div className="admin-title-row">
        <h1>Dashboard</h1>
        <label className="dash-period">
          Period{' '}
          <select
            value={weeks}
            onChange={(e) => setParams(e.target.value === '12' ? {} : { weeks: e.target.value })}
          >
            {choices.map((n) => (
              <option key={n} value={n}>
                {n === 1 ? 'This week' : `Last ${n} weeks`}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error && <Alert kind="error">{error}</Alert>}
      {!figures && !error && (
        <p className="loading" role="status">
          Loading the figures…
        </p>
      )}
      {figures && <Figures d={figures} />}
    </div>
  );
}

function Figures({ d }: { d: AdminDashboard }) {
  const { thisWeek, lastWeek } = headline(d);
  const period = periodText(d.weeks.length);
  const rows = weekRows(d);
  const note = testOrdersNote(d);
  const statuses = statusRows(d);
  const colors = colorRows(d);
  const strengths = strengthRows(d);
  return (
    <>
      {note && <p className="dash-note">{note}</p>}
      <ul className="dash-figures">
        <Figure
          label="Revenue this week"
          value={formatCents(thisWeek.revenueCents)}
          testId="figure-revenue"
          sub={
            <>
              Week of {weekLabel(thisWeek.start)}
              {lastWeek && <> · last week {formatCents(lastWeek.revenueCents)}</>}
            </>
          }
        />
        <Figure
          label="Orders this week"
          value={String(thisWeek.orders)}
          testId="figure-orders"
          sub={`${d.totals.orders} in ${period}`}
        />
        <Figure
          label="Average order value"
          value={formatCents(d.totals.averageOrderCents)}
          testId="figure-average"
          sub={`${formatCents(d.totals.revenueCents)} from ${d.totals.orders} ${d.totals.orders === 1 ? 'order' : 'orders'} in ${period}`}
        />
        <Figure
          label="Hours in queue"
          value={queueText(d.queueHours)}
          testId="figure-queue"
          sub={<Link to="/admin/production">Production sheet</Link>}
        />
        <Figure
          label="Will ship late"
          value={String(d.late.count)}
          testId="figure-late"
          warn={d.late.count > 0}
          sub={<Link to="/admin">Orders board</Link>}
        />
      </ul>

      {d.late.orders.length > 0 && <LateOrders d={d} />}

      <div className="dash-charts">
        <Panel title="Revenue per week" id="chart-revenue">
          <RevenueChart rows={rows} />
          <NumbersTable
            caption={`Revenue per week, ${period}`}
            columns={['Week of', 'Revenue']}
            rows={rows.map((r) => ({ key: r.start, cells: [r.label, r.revenueText] }))}
          />
        </Panel>
        <Panel title="Orders per week" id="chart-orders">
          <OrdersChart rows={rows} />
          <NumbersTable
            caption={`Orders per week, ${period}`}
            columns={['Week of', 'Orders']}
            rows={rows.map((r) => ({ key: r.start, cells: [r.label, r.orders] }))}
          />
        </Panel>
        <Panel title="Orders by status" id="chart-status">
          <p className="dash-chart-note">Orders placed in {period}, by their status now.</p>
          <RankChart
            rows={statuses.map((s) => ({ label: s.label, value: s.orders }))}
            label="Bar chart of orders by status; the numbers are in the table below."
            name="Orders"
          />
          <NumbersTable
            caption={`Orders placed in ${period} by status`}
            columns={['Status', 'Orders']}
            rows={statuses.map((s) => ({ key: s.status, cells: [s.label, s.orders] }))}
          />
        </Panel>
        <Panel title="Top colors" id="chart-colors">
          <p className="dash-chart-note">Pieces sold in {period}.</p>
          {colors.length === 0 ? (
            <p className="empty">No pieces sold in {period}.</p>
          ) : (
            <>
              <RankChart
                rows={colors.map((c) => ({ label: c.name, value: c.pieces, fill: c.swatch }))}
                label="Bar chart of pieces sold by color; the numbers are in the table below."
                name="Pieces"
              />
              <NumbersTable
                caption={`Pieces sold by color in ${period}`}
                columns={['Color', 'Pieces']}
                rows={colors.map((c) => ({ key: c.name, cells: [c.name, c.pieces] }))}
              />
            </>
          )}
        </Panel>
        <Panel title="Top strengths" id="chart-strengths">
          <p className="dash-chart-note">Pieces sold in {period}.</p>
          {strengths.length === 0 ? (
            <p className="empty">No pieces sold in {period}.</p>
          ) : (
            <>
              <RankChart
                rows={strengths.map((s) => ({ label: s.label, value: s.pieces }))}
                label="Bar chart of pieces sold by strength; the numbers are in the table below."
                name="Pieces"
              />
              <NumbersTable
                caption={`Pieces sold by strength in ${period}`}
                columns={['Strength', 'Pieces']}
                rows={strengths.map((s) => ({ key: s.label, cells: [s.label, s.pieces] }))}
              />
            </>
          )}
        </Panel>
      </div>
      <p className="dash-footnote">
        Weeks run Monday to Sunday in the shop's time zone ({d.timeZone}). Revenue is what customers paid
        (items, shipping and tax) less refunds, in the week the order was paid; orders count once paid (paid,
        queued, printing or shipped now).
      </p>
    </>
  );
}

function Figure({
  label,
  value,
  sub,
  testId,
  warn = false,
}: {
  label: string;
  value: string;
  sub: ReactNode;
  testId: string;
  warn?: boolean;
}) {
  return (
    <li className={warn ? 'card dash-figure is-warn' : 'card dash-figure'} data-testid={testId}>
      <h2 className="dash-figure-label">{label}</h2>
      <p className="dash-figure-value">{value}</p>
      <p className="dash-figure-sub">{sub}</p>
    </li>
  );
}

function LateOrders({ d }: { d: AdminDashboard }) {
  const more = d.late.count - d.late.orders.length;
  return (
    <Panel title="Orders that will ship late" id="late-orders" className="dash-late">
      <ul className="dash-late-list">
        {d.late.orders.map((o) => (
          <li key={o.id}>
            <Link to={`/admin/orders/${o.id}`} className="order-link">
              #{o.id}
            </Link>{' '}
            <StatusBadge status={o.status} />{' '}
            <span className={o.reason === 'late' ? 'ship-by is-late' : 'ship-by'}>
              {o.reason === 'late'
                ? `ship by ${dayLabel(o.shipBy)}: passed`
                : `ships by today, past the ${cutoffText(d.late.cutoff)} cut-off`}
            </span>
          </li>
        ))}
      </ul>
      {more > 0 && <p className="muted">And {more} more: see the orders board.</p>}
    </Panel>
  );
}
