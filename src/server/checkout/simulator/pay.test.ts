import { describe, expect, it } from 'vitest';
import { expiryValid, luhnValid } from './pay.ts';

describe('card checks', () => {
  it('knows Luhn-valid numbers', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4000000000000002')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
  });

  it('accepts an expiry through the last day of its month', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect(expiryValid('11 / 26', now)).toBe(true);
    expect(expiryValid('10/26', now)).toBe(false);
    expect(expiryValid('12 / 34', now)).toBe(true);
  });
});
