import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, LabelList, Tooltip, XAxis, YAxis } from 'recharts';
import { compactDollars, type WeekRow } from './dashboard-view.ts';

// The dashboard's charts (recharts, only in the dashboard's lazy chunk). Each is a picture for sighted
// users: its numbers are in a table beside it (NumbersTable), so the drawing itself is one labelled image
// and recharts' keyboard layer is off (nothing in an image may take the focus).

const NAVY = '#13315c';
const ACCENT = '#d9822b';
const AXIS = { fontSize: 12, fill: '#55606e' };

/** The picture: a labelled image with the chart inside. */
function Picture({ label, height, children }: { label: string; height: number; children: ReactNode }) {
  return (
    <div className="dash-chart" role="img" aria-label={label} style={{ height }}>
      {children}
    </div>
  );
}

const chartStyle = (height: number) => ({ width: '100%', height });

export function RevenueChart({ rows }: { rows: WeekRow[] }) {
  return (
    <Picture label="Bar chart of revenue per week; the numbers are in the table below." height={220}>
      <BarChart
        data={rows}
        responsive
        style={chartStyle(220)}
        accessibilityLayer={false}
        margin={{ left: 4 }}
      >
        <CartesianGrid vertical={false} stroke="#dde2e8" />
        <XAxis dataKey="label" tick={AXIS} interval="preserveStartEnd" minTickGap={8} />
        <YAxis tick={AXIS} tickFormatter={compactDollars} width={56} allowDecimals={false} />
        <Tooltip formatter={(_v, _n, item) => [(item.payload as WeekRow).revenueText, 'Revenue']} />
        <Bar dataKey="revenue" name="Revenue" fill={ACCENT} radius={[3, 3, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </Picture>
  );
}

export function OrdersChart({ rows }: { rows: WeekRow[] }) {
  return (
    <Picture label="Bar chart of orders per week; the numbers are in the table below." height={220}>
      <BarChart data={rows} responsive style={chartStyle(220)} accessibilityLayer={false}>
        <CartesianGrid vertical={false} stroke="#dde2e8" />
        <XAxis dataKey="label" tick={AXIS} interval="preserveStartEnd" minTickGap={8} />
        <YAxis tick={AXIS} width={36} allowDecimals={false} />
        <Tooltip />
        <Bar dataKey="orders" name="Orders" fill={NAVY} radius={[3, 3, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </Picture>
  );
}

type BarRow = { label: string; value: number; fill?: string };

/** Horizontal bars with their value at the end: statuses, colors, strengths. */
export function RankChart({ rows, label, name }: { rows: BarRow[]; label: string; name: string }) {
  const height = Math.max(120, rows.length * 30 + 24);
  return (
    <Picture label={label} height={height}>
      <BarChart
        data={rows}
        layout="vertical"
        responsive
        style={chartStyle(height)}
        accessibilityLayer={false}
        margin={{ right: 36, left: 4 }}
      >
        <XAxis type="number" hide allowDecimals={false} />
        {/* The tick's own width keeps a label ('Queued for Print') on one line: recharts wraps to a narrower one. */}
        <YAxis type="category" dataKey="label" tick={{ ...AXIS, width: 200 }} width={124} interval={0} />
        <Tooltip />
        <Bar dataKey="value" name={name} fill={NAVY} radius={[0, 3, 3, 0]} isAnimationActive={false}>
          {rows.map((r) => (
            <Cell key={r.label} fill={r.fill ?? NAVY} stroke="#343a40" strokeWidth={r.fill ? 1 : 0} />
          ))}
          <LabelList dataKey="value" position="right" style={{ fontSize: 12, fill: '#1b1f24' }} />
        </Bar>
      </BarChart>
    </Picture>
  );
}
