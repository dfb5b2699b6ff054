import { describe, expect, it } from 'vitest';
import { fitsBuildVolume, modelWarnings, WARNING_TEXT } from './warnings.ts';

const options = { buildVolumeMm: { x: 256, y: 256, z: 256 }, smallModelMm: 10 };

describe('modelWarnings', () => {
  it('has nothing to say about a watertight 20 mm part', () => {
    expect(modelWarnings({ dimensions: { x: 20, y: 20, z: 20 }, watertight: true }, options)).toEqual({
      fits: true,
      warnings: [],
    });
  });

  it('uses the exact texts', () => {
    const holes = modelWarnings({ dimensions: { x: 2, y: 3, z: 9.99 }, watertight: false }, options);
    expect(holes.warnings).toEqual([
      {
        code: 'not_watertight',
        message: 'This model has holes in its surface (not watertight); we will print it as well as we can',
      },
      { code: 'maybe_inches', message: 'This model is very small: was it designed in inches?' },
    ]);
    const big = modelWarnings({ dimensions: { x: 300, y: 10, z: 10 }, watertight: true }, options);
    expect(big).toEqual({
      fits: false,
      warnings: [{ code: 'too_big', message: 'This model does not fit our printer (256 x 256 x 256 mm)' }],
    });
    expect(WARNING_TEXT.tooBig({ x: 220, y: 220, z: 250 })).toBe(
      'This model does not fit our printer (220 x 220 x 250 mm)',
    );
  });

  it('warns about inches only when every dimension is under the threshold', () => {
    const at = (x: number) =>
      modelWarnings({ dimensions: { x, y: 1, z: 1 }, watertight: true }, options).warnings;
    expect(at(9.9)).toHaveLength(1);
    expect(at(10)).toHaveLength(0);
    expect(
      modelWarnings({ dimensions: { x: 5, y: 1, z: 1 }, watertight: true }, { ...options, smallModelMm: 4 })
        .warnings,
    ).toEqual([]);
  });

  it('says when part of the model was inside out and corrected', () => {
    const cube = { dimensions: { x: 20, y: 20, z: 20 }, watertight: true };
    expect(modelWarnings({ ...cube, correctedShells: 0 }, options).warnings).toEqual([]);
    expect(modelWarnings({ ...cube, correctedShells: 2 }, options).warnings).toEqual([
      { code: 'inside_out', message: 'Part of this model was inside out: we corrected it.' },
    ]);
  });

  it('never asks about inches when the file says its unit (3MF)', () => {
    const small = { dimensions: { x: 5, y: 4, z: 3 }, watertight: true };
    expect(modelWarnings(small, options).warnings.map((w) => w.code)).toEqual(['maybe_inches']);
    expect(modelWarnings({ ...small, unitsKnown: true }, options).warnings).toEqual([]);
  });
});

describe('fitsBuildVolume', () => {
  it('tries the orientations of the axes (sorted dimensions against the sorted volume)', () => {
    const build = { x: 300, y: 200, z: 100 };
    expect(fitsBuildVolume({ x: 100, y: 290, z: 150 }, build)).toBe(true);
    expect(fitsBuildVolume({ x: 150, y: 150, z: 150 }, build)).toBe(false);
    expect(fitsBuildVolume({ x: 256, y: 256, z: 256 }, { x: 256, y: 256, z: 256 })).toBe(true);
    expect(fitsBuildVolume({ x: 256.01, y: 1, z: 1 }, { x: 256, y: 256, z: 256 })).toBe(false);
  });
});
