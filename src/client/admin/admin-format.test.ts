import { describe, expect, it } from 'vitest';
import { dollarsToCents, formatGrams, formatHours } from './admin-format.ts';
import { qrPath } from './qr-path.ts';
import { ticketIds } from './ticket-ids.ts';

describe('dollarsToCents', () => {
  it('reads a typed amount as whole cents', () => {
    expect(dollarsToCents('12')).toBe(1200);
    expect(dollarsToCents('12.5')).toBe(1250);
    expect(dollarsToCents(' $1,012.05 ')).toBe(101205);
    expect(dollarsToCents('.99')).toBe(99);
    expect(dollarsToCents('0.1')).toBe(10);
  });
  it('refuses what is not an amount', () => {
    for (const typed of ['', 'abc', '-5', '1.234', '1e3', '12.']) expect(dollarsToCents(typed)).toBeNull();
  });
});

describe('production figures', () => {
  it('formats hours and grams', () => {
    expect(formatHours(0.25)).toBe('15 min');
    expect(formatHours(2.46)).toBe('2.5 h');
    expect(formatHours(31.6)).toBe('32 h');
    expect(formatGrams(18.4)).toBe('18 g');
    expect(formatGrams(1240)).toBe('1.24 kg');
    // Grouped like prices, so a big queue reads at a glance.
    expect(formatHours(18_000)).toBe('18,000 h');
    expect(formatGrams(2_678_400)).toBe('2,678.40 kg');
  });
});

describe('job tickets', () => {
  it('prints each order of ?ids= once, ignoring anything else', () => {
    expect(ticketIds('3,1,3, 2,x,,-4,0')).toEqual([3, 1, 2]);
    expect(ticketIds(null)).toEqual([]);
  });
  it('draws the QR code as one path inside its quiet zone', () => {
    const qr = qrPath('http://127.0.0.1:3000/admin/orders/12');
    expect(qr.size).toBeGreaterThanOrEqual(21 + 8);
    expect(qr.d).toMatch(/^(M\d+ \d+h\d+v1h-\d+z)+$/);
    // The finder pattern's top row: seven dark modules from the quiet zone's corner.
    expect(qr.d.startsWith('M4 4h7v1h-7z')).toBe(true);
  });
});
