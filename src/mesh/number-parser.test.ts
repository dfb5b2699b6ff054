import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOT_A_NUMBER, NOT_FINITE, parseDecimal, parsedNumber } from './number-parser.ts';
import { fastNumber } from './wasm/text-engine.ts';

/**
 * parseDecimal's answer, after checking that the fast paths' reader (WebAssembly) gives the same, bit
 * for bit, or leaves the number to parseDecimal.
 */
function parse(s: string): number | 'invalid' | 'not-finite' {
  const bytes = new TextEncoder().encode(`${s} `);
  const fast = fastNumber(s);
  const end = parseDecimal(bytes, 0);
  if (fast !== null) {
    expect(end, `the fast reader took ${s}`).toBe(bytes.length - 1);
    expect(Object.is(fast, parsedNumber[0]), `the fast reader's value for ${s}`).toBe(true);
  }
  if (end === NOT_A_NUMBER) return 'invalid';
  if (end === NOT_FINITE) return 'not-finite';
  expect(end).toBe(bytes.length - 1);
  return parsedNumber[0]!;
}

const digits = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(''));

/** Numbers as the text formats write them: sign, digits, fraction, exponent, in any mix. */
const decimal = fc
  .tuple(
    fc.constantFrom('', '-', '+'),
    digits(0, 20),
    fc.option(digits(0, 20)),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3))),
  )
  .filter(([, int, frac]) => int.length > 0 || (frac !== null && frac.length > 0))
  .map(
    ([sign, int, frac, exp]) => `${sign}${int}${frac === null ? '' : `.${frac}`}${exp ? exp.join('') : ''}`,
  );

describe('parseDecimal', () => {
  it('reads the usual forms exactly like Number()', () => {
    for (const s of [
      '0',
      '-0',
      '1',
      '-1.5',
      '1e-5',
      '-.5',
      '.5',
      '1.',
      '1.e3',
      '00.5',
      '+7',
      '1E+05',
      '-3.4028235e+38',
    ]) {
      expect(Object.is(parse(s), Number(s)), s).toBe(true);
    }
  });

  it('leaves none of the usual forms to the slow path', () => {
    // (Not 1 or 2: a power of two with 17 digits is left to Number(), see exactQuotient.)
    for (const x of [0, 3, -7, 0.1, -12.5, 127.99, 1500.123456789, 1 / 3, -Math.PI * 100, 255.5]) {
      for (const s of [
        x.toExponential(6),
        x.toExponential(15),
        x.toFixed(0),
        x.toFixed(3),
        x.toFixed(6),
        x.toFixed(9),
        x.toPrecision(15),
        x.toPrecision(17),
      ]) {
        expect(fastNumber(s), s).toBe(Number(s));
      }
    }
  });

  it('agrees with Number() on every decimal, bit for bit', () => {
    fc.assert(
      fc.property(decimal, (s) => {
        expect(Object.is(parse(s), Number(s))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with Number() on doubles printed in every style', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer({ min: 0, max: 16 }),
        (x, digitsAfter) => {
          for (const s of [
            String(x),
            x.toExponential(Math.min(digitsAfter, 16)),
            x.toFixed(Math.min(digitsAfter, 20)),
          ]) {
            if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s))
              expect(Object.is(parse(s), Number(s))).toBe(true);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads 16 to 19 digits exactly like Number() (doubles written with 17 significant digits)', () => {
    const long = fc
      .tuple(digits(16, 19), fc.nat(19), fc.option(fc.integer({ min: -6, max: 6 })))
      .map(([d, dot, exp]) => {
        const at = dot % d.length;
        return `${d.slice(0, at)}.${d.slice(at)}${exp === null ? '' : `e${exp}`}`;
      });
    fc.assert(
      fc.property(long, fc.double({ min: 0, max: 4000, noNaN: true }), (s, x) => {
        for (const t of [s, x.toPrecision(17), x.toPrecision(16), (-x).toPrecision(17)]) {
          expect(Object.is(parse(t), Number(t)), t).toBe(true);
        }
      }),
      { numRuns: 20_000 },
    );
    // Halfway cases and powers of two, which the exact path hands to Number().
    for (const t of [
      '9007199254740993',
      '0.30000000000000004',
      '128.00000000000000',
      '2.2250738585072014',
      '1.0000000000000002',
      '0.5000000000000000555',
    ]) {
      expect(Object.is(parse(t), Number(t)), t).toBe(true);
    }
  });

  it('never accepts what Number() would read differently, and never throws', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789.eE+-xXabn#IiNf'.split('')), maxLength: 12 }),
        (s) => {
          const v = parse(s);
          if (typeof v === 'number') expect(Object.is(v, Number(s))).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('refuses hex, empty mantissas and stray letters', () => {
    for (const s of ['0x10', '0X1', '.', '-', '+', 'e5', '1e', '1e+', '1.2.3', '1,5', '1f', '--1', 'abc']) {
      expect(parse(s), s).toBe('invalid');
    }
  });

  it('tells nan / inf words apart from garbage', () => {
    for (const s of [
      'nan',
      'NaN',
      '-nan',
      'inf',
      '-inf',
      'Infinity',
      '1.#IND',
      '-1.#IND',
      '1.#INF',
      '1.#QNAN',
      'nan(0x7)',
    ]) {
      expect(parse(s), s).toBe('not-finite');
    }
  });

  it('returns huge exponents as infinity or zero (the caller refuses > 1e38)', () => {
    expect(parse('1e39')).toBe(1e39);
    expect(parse('1e400')).toBe(Infinity);
    expect(parse('-1e99999999999')).toBe(-Infinity);
    expect(parse('1e-400')).toBe(0);
  });
});
