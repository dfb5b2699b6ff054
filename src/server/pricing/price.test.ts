import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { discountPercentFor, PricingInputError, priceLine, priceUnit, printedVolumeCm3 } from './price.ts';
import { DEFAULT_PRICING } from './settings.ts';

// Hand-computed with the defaults: wall 1.2 mm, PLA 1.24 g/cm3, 5 c/g, 12 cm3/h, $2.50/h, $3.00 setup,
// $12.00 minimum, infill 0 / 15 / 25 / 50 / 100 %, tiers 10+ 5 %, 50+ 10 %.

const cube100 = { volumeCm3: 1000, areaCm2: 600 }; // a 100 mm cube
const cube20 = { volumeCm3: 8, areaCm2: 24 }; // a 20 mm cube

describe('priceUnit', () => {
  it('prices a 100 mm cube at every strength', () => {
    // shell = 600 cm2 x 0.12 cm = 72 cm3; the rest = 1000 - 72 = 928 cm3.
    // 1 Hollow: printed 72; 89.28 g -> 446.4 c; 6 h -> 1500 c; 300 + 446.4 + 1500 = 2246.4 -> $22.46
    // 2 Light: 72 + 0.15 x 928 = 211.2; 261.888 g -> 1309.44 c; 17.6 h -> 4400 c; = 6009.44 -> $60.09
    // 3 Standard: 72 + 232 = 304; 376.96 g -> 1884.8 c; 25.333 h -> 6333.33 c; = 8518.13 -> $85.18
    // 4 Heavy: 72 + 464 = 536; 664.64 g -> 3323.2 c; 44.667 h -> 11166.67 c; = 14789.87 -> $147.90
    // 5 Solid: 1000; 1240 g -> 6200 c; 83.333 h -> 20833.33 c; = 27333.33 -> $273.33
    const cents = [1, 2, 3, 4, 5].map((s) => priceUnit(cube100, s, DEFAULT_PRICING).unitCents);
    expect(cents).toEqual([2246, 6009, 8518, 14790, 27333]);
    const standard = priceUnit(cube100, 3, DEFAULT_PRICING);
    expect(standard.printedVolumeCm3).toBeCloseTo(304, 9);
    expect(standard.grams).toBeCloseTo(376.96, 9);
    expect(standard.hours).toBeCloseTo(25.3333333, 6);
    expect(standard.materialCents).toBeCloseTo(1884.8, 9);
    expect(standard.machineCents).toBeCloseTo(6333.3333, 3);
    expect(standard.minimumApplied).toBe(false);
  });

  it('charges the $12.00 minimum for a small model', () => {
    // 20 mm cube, Standard: shell 24 x 0.12 = 2.88; printed 2.88 + 0.25 x 5.12 = 4.16 cm3;
    // 5.1584 g -> 25.79 c; 0.34667 h -> 86.67 c; 300 + 25.79 + 86.67 = 412.46 -> 412 c < 1200.
    const p = priceUnit(cube20, 3, DEFAULT_PRICING);
    expect(p.printedVolumeCm3).toBeCloseTo(4.16, 9);
    expect(p.unitCents).toBe(1200);
    expect(p.minimumApplied).toBe(true);
  });

  it('caps the shell at the volume (a thin part is printed solid)', () => {
    // A 100 x 100 x 1 mm plate: V = 10 cm3, A = 2 x 100 + 4 x (10 x 0.1) = 204 cm2 -> shell 24.48 > 10.
    expect(printedVolumeCm3({ volumeCm3: 10, areaCm2: 204 }, 0, 1.2)).toBe(10);
  });

  it('refuses NaN, infinite or negative measurements and strengths out of 1-5', () => {
    for (const m of [
      { volumeCm3: Number.NaN, areaCm2: 1 },
      { volumeCm3: 1, areaCm2: Number.POSITIVE_INFINITY },
      { volumeCm3: -1, areaCm2: 1 },
    ]) {
      expect(() => priceUnit(m, 3, DEFAULT_PRICING)).toThrow(PricingInputError);
    }
    for (const s of [0, 6, 2.5, Number.NaN])
      expect(() => priceUnit(cube20, s, DEFAULT_PRICING)).toThrow(PricingInputError);
  });
});

describe('priceLine', () => {
  it('applies the quantity tiers to the line, in whole cents', () => {
    // 9 x 8518 = 76662, no discount.
    expect(priceLine(cube100, 3, 9, DEFAULT_PRICING)).toMatchObject({ lineCents: 76662, discountPercent: 0 });
    // 10 x 8518 = 85180; 5 % = 4259 -> 80921.
    expect(priceLine(cube100, 3, 10, DEFAULT_PRICING)).toMatchObject({
      subtotalCents: 85180,
      discountCents: 4259,
      lineCents: 80921,
      discountPercent: 5,
    });
    // 50 x 8518 = 425900; 10 % = 42590 -> 383310.
    expect(priceLine(cube100, 3, 50, DEFAULT_PRICING).lineCents).toBe(383310);
  });

  it('never takes a piece below the $12.00 minimum with the quantity discount (SPEC: "per item")', () => {
    // 12 pieces at the minimum: no discount at all (it used to be $11.40 each).
    expect(priceLine(cube20, 1, 12, DEFAULT_PRICING)).toMatchObject({
      unitCents: 1200,
      subtotalCents: 14400,
      discountCents: 0,
      discountPercent: 0,
      lineCents: 14400,
    });
    // A piece just above the minimum: the discount stops at $12.00 a piece.
    const justAbove = { volumeCm3: 0, areaCm2: 0 };
    const unit = priceUnit(justAbove, 3, { ...DEFAULT_PRICING, setupFeeCents: 1250 }).unitCents;
    expect(unit).toBe(1250);
    expect(priceLine(justAbove, 3, 20, { ...DEFAULT_PRICING, setupFeeCents: 1250 })).toMatchObject({
      subtotalCents: 25000,
      // 5 % would be 1250 -> 23750 = $11.875 a piece; it stops at 20 x $12.00.
      lineCents: 24000,
      discountCents: 1000,
      discountPercent: 5,
    });
    // Far above the minimum the whole tier applies, as before.
    expect(priceLine(cube100, 3, 50, DEFAULT_PRICING).discountCents).toBe(42590);
    for (let q = 1; q <= 100; q++) {
      expect(priceLine(cube20, 1, q, DEFAULT_PRICING).lineCents).toBeGreaterThanOrEqual(1200 * q);
    }
  });

  it('refuses a quantity of 0, -1, 1.5 or 1e9', () => {
    for (const q of [0, -1, 1.5, 1e9, Number.NaN]) {
      expect(() => priceLine(cube20, 3, q, DEFAULT_PRICING)).toThrow(PricingInputError);
    }
  });

  it('picks the best tier reached, whatever their order', () => {
    const tiers = [
      { minQuantity: 50, percent: 10 },
      { minQuantity: 10, percent: 5 },
    ];
    expect([1, 10, 49, 50, 1000].map((q) => discountPercentFor(q, tiers))).toEqual([0, 5, 5, 10, 10]);
  });

  it('never gives NaN, 0 or a negative price; one more piece never lowers the line by more than a tier', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 999 }),
        (volumeCm3, areaCm2, strength, quantity) => {
          const m = { volumeCm3, areaCm2 };
          const a = priceLine(m, strength, quantity, DEFAULT_PRICING);
          const b = priceLine(m, strength, quantity + 1, DEFAULT_PRICING);
          expect(Number.isSafeInteger(a.unitCents) && a.unitCents >= 1200).toBe(true);
          expect(Number.isSafeInteger(a.lineCents) && a.lineCents > 0).toBe(true);
          // A tier step may lower the line a little, but never below the previous tier's line.
          expect(b.lineCents).toBeGreaterThanOrEqual(Math.floor(a.lineCents * 0.9));
        },
      ),
    );
  });
});
