import { describe, expect, it } from 'vitest';
import { gridLayout } from './grid.ts';

describe('gridLayout', () => {
  it('is wider than the model, in round cells and at most 30 of them', () => {
    for (const footprint of [0.001, 0.02, 0.5, 2, 20, 30, 100, 256, 1200, 5000]) {
      const g = gridLayout(footprint);
      expect(g.size, `${footprint}`).toBeGreaterThan(footprint);
      expect(g.size).toBeCloseTo(g.cell * g.divisions);
      expect(g.divisions).toBeLessThanOrEqual(32);
      expect([0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 50, 100, 500, 1000]).toContain(g.cell);
      // Never so coarse that the model is a speck on one cell.
      expect(g.size).toBeLessThan(footprint * 20);
    }
  });

  it('uses 5 mm cells for a 20 mm cube and 10 mm cells for a 100 mm part', () => {
    expect(gridLayout(20)).toEqual({ size: 40, divisions: 8, cell: 5 });
    expect(gridLayout(100).cell).toBe(10);
    expect(gridLayout(Number.NaN).size).toBeGreaterThan(0);
    expect(gridLayout(0).size).toBeGreaterThan(0);
  });

  it('draws a micron cube on a micron grid, not on a 1 mm one', () => {
    expect(gridLayout(0.001)).toEqual({ size: 0.002, divisions: 2, cell: 0.001 });
    expect(gridLayout(0.05).cell).toBe(0.005);
  });
});
