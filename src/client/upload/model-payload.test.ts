import { describe, expect, it } from 'vitest';
import { failureText } from './model-api.ts';
import { readModel, readQuote } from './model-payload.ts';
import { cubePayload } from './testing.ts';

const payload = {
  ...cubePayload('m1', 'cube.stl'),
  warnings: [{ code: 'maybe_inches', message: 'Inches?' }],
};

describe('readModel', () => {
  it('accepts the modelPayload of src/shared/models.ts', () => {
    expect(readModel(payload)).toEqual(payload);
  });

  it('refuses an answer without what a card needs', () => {
    expect(readModel(null)).toBeNull();
    expect(readModel({ ...payload, id: '' })).toBeNull();
    expect(readModel({ ...payload, dimensions: { x: 1, y: 2 } })).toBeNull();
    expect(readModel({ ...payload, prices: { '1': 12 } })).toBeNull();
    expect(readModel({ ...payload, warnings: 'none' })).toBeNull();
  });

  it('drops malformed warnings', () => {
    expect(readModel({ ...payload, warnings: [{ code: 'x' }, ...payload.warnings] })?.warnings).toEqual(
      payload.warnings,
    );
  });
});

describe('readQuote', () => {
  it('needs a unit price and a line total', () => {
    expect(readQuote({ unitPrice: 12, lineTotal: 24 })).not.toBeNull();
    expect(readQuote({ unitPrice: '12' })).toBeNull();
  });
});

describe('failureText', () => {
  it("prefers the server's error text", () => {
    expect(failureText(422, { error: 'This file is not an STL or OBJ model.' })).toBe(
      'This file is not an STL or OBJ model.',
    );
  });

  it('has its own words when the server sent none', () => {
    expect(failureText(413, {})).toBe('This file is larger than 64 MB.');
    expect(failureText(429, {})).toBe('Too many uploads. Please wait a moment and try again.');
    expect(failureText(502, {})).toBe('The upload failed (status 502). Please try again.');
  });
});
