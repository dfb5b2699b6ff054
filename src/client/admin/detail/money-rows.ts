import type { AdminOrderDetail } from '../../../shared/admin.ts';
import { formatCents } from '../../../shared/format.ts';

// The order's money as staff read it, in the order the total adds it up: the items' subtotal, the shipping
// method and its price, the taxes the payment provider charged, the total (items + shipping + tax).

export type MoneyRow = { key: string; label: string; amount: string; grand?: boolean };

type Money = Pick<
  AdminOrderDetail,
  'subtotalCents' | 'shippingCents' | 'taxCents' | 'taxLines' | 'totalCents' | 'currency' | 'testMode'
> & { shipping: Pick<AdminOrderDetail['shipping'], 'method'> };

export function moneyRows(order: Money): MoneyRow[] {
  const rows: MoneyRow[] = [
    { key: 'subtotal', label: 'Subtotal', amount: formatCents(order.subtotalCents) },
    {
      key: 'shipping',
      label: order.shipping.method ? `Shipping (${order.shipping.method})` : 'Shipping',
      amount: order.shippingCents > 0 ? formatCents(order.shippingCents) : 'Free',
    },
  ];
  const lines = order.taxLines.filter((l) => l.amountCents !== 0);
  const addsUp = lines.length > 0 && lines.reduce((n, l) => n + l.amountCents, 0) === order.taxCents;
  if (order.taxCents > 0 && addsUp) {
    for (const [i, l] of lines.entries()) {
      rows.push({ key: `tax-${i}`, label: l.label.trim() || 'Tax', amount: formatCents(l.amountCents) });
    }
  } else {
    rows.push({
      key: 'tax',
      label: 'Tax',
      amount: order.taxCents === 0 && order.testMode ? 'None (test order)' : formatCents(order.taxCents),
    });
  }
  rows.push({
    key: 'total',
    label: 'Total',
    amount: formatCents(order.totalCents, order.currency),
    grand: true,
  });
  return rows;
}
