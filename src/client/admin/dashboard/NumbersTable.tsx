import type { ReactNode } from 'react';

/** A chart's numbers as a table, folded under the chart ("Show the numbers") and read by screen readers. */
export function NumbersTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: string[];
  rows: { key: string; cells: ReactNode[] }[];
}) {
  return (
    <details className="dash-numbers">
      <summary>
        Show the numbers<span className="visually-hidden">: {caption}</span>
      </summary>
      <table className="admin-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c, n) => (
              <th key={c} scope="col" className={n > 0 ? 'num' : undefined}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              {r.cells.map((cell, n) =>
                n === 0 ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells never reorder.
                  <th key={n} scope="row">
                    {cell}
                  </th>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: as above.
                  <td key={n} className="num">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
