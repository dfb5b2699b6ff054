import { colorName, strengthLabel } from '../../shared/catalog.ts';
import { formatCents } from '../../shared/format.ts';

/**
 * One order line in words, as the hosted payment page and the confirmation mail both show it:
 * 'Red · Solid (5/5) · 10 × $22.46 · 5% quantity discount'.
 */
export function describeLine(l: {
  color: string;
  strength: number;
  quantity: number;
  unitCents: number;
  discountPercent: number;
}): string {
  const parts = [
    colorName(l.color),
    `${strengthLabel(l.strength)} (${l.strength}/5)`,
    `${l.quantity} × ${formatCents(l.unitCents)}`,
  ];
  if (l.discountPercent > 0) parts.push(`${l.discountPercent}% quantity discount`);
  return parts.join(' · ');
}
