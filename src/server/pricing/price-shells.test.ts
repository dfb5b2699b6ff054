import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeMesh } from '../../mesh/analysis.ts';
import { box, inverted, merged, toBinaryStl, toFloat32, triangles } from '../../mesh/testing/generate.ts';
import type { MeshAnalysis } from '../../mesh/types.ts';
import { priceUnit, printedVolumeCm3 } from './price.ts';
import { measureOf } from './price-model.ts';
import { DEFAULT_PRICING } from './settings.ts';

// The price covers what gets printed (issue #23 §6): a part wound inside out counts in full, and no
// closed surface is priced as less plastic than its walls need (area / 2 x minimum wall: a wall has two
// faces; within its box).

/** The model row's measurements as upload-service.ts stores them. */
function rowOf(a: MeshAnalysis) {
  return {
    volumeMm3: a.volumeCm3 * 1000,
    areaMm2: a.areaCm2 * 100,
    dimX: a.dimensions.x,
    dimY: a.dimensions.y,
    dimZ: a.dimensions.z,
  };
}

const centsAtEveryStrength = (a: MeshAnalysis) =>
  [1, 2, 3, 4, 5].map((s) => priceUnit(measureOf(rowOf(a)), s, DEFAULT_PRICING).unitCents);

describe("the issue's probe: a 120 mm cube and a separate one wound inside out", () => {
  const analyse = (mesh: Parameters<typeof triangles>[0]) =>
    analyzeMesh(toBinaryStl(toFloat32(triangles(mesh))), 'stl');
  const cube = box(120, 120, 120);
  const probe = merged(cube, inverted(box(120, 120, 120, 130, 0, 0)));

  it('is priced as two cubes at every strength, not the $12.00 minimum', () => {
    const one = analyse(cube);
    const two = analyse(probe);
    expect(two).toMatchObject({ volumeCm3: 3456, areaCm2: 1728, correctedShells: 1, watertight: true });
    // One cube at Solid: 1728 cm3 -> 2142.72 g -> 10713.6 c, 144 h -> 36000 c, + 300 c = $470.14.
    expect(centsAtEveryStrength(one)[4]).toBe(47014);
    // Two: 3456 cm3 -> 21427.2 c + 72000 c + 300 c = $937.27; every strength priced on 2 x 1728 cm3.
    const twoCubes = { volumeCm3: 3456, areaCm2: 1728 };
    expect(centsAtEveryStrength(two)).toEqual(
      [1, 2, 3, 4, 5].map((s) => priceUnit(twoCubes, s, DEFAULT_PRICING).unitCents),
    );
    expect(centsAtEveryStrength(two)[4]).toBe(93727);
    for (const cents of centsAtEveryStrength(two)) expect(cents).toBeGreaterThan(1200);
  });
});

describe('the walls backstop', () => {
  it('prices a sealed box with paper-thin walls at least at its walls: area / 2 x the minimum wall', () => {
    // A 100 mm cube hollowed to walls of 0.02 mm: an inside-out 99.96 mm cube within it (a void).
    const thin = analyzeMesh(
      toBinaryStl(
        triangles(merged(box(100, 100, 100), inverted(box(99.96, 99.96, 99.96, 0.02, 0.02, 0.02)))),
      ),
      'stl',
    );
    expect(thin).toMatchObject({ voidShells: 1, correctedShells: 0 });
    expect(thin.volumeCm3).toBeLessThan(1.3);
    const walls = (thin.areaCm2 / 2) * (DEFAULT_PRICING.minWallMm / 10); // ~48 cm3
    for (let strength = 1; strength <= 5; strength++) {
      const p = priceUnit(measureOf(rowOf(thin)), strength, DEFAULT_PRICING);
      expect(p.printedVolumeCm3).toBeCloseTo(walls, 9);
      expect(p.minimumApplied).toBe(false);
    }
  });

  it('is area / 2 x minimum wall, never more than the bounding box, and off at 0', () => {
    expect(printedVolumeCm3({ volumeCm3: 0.001, areaCm2: 1200, boxCm3: 1000 }, 0, 1.2, 0.8)).toBeCloseTo(
      48,
      12,
    );
    // Two sheets 0.001 mm apart, closed at the edges: the box itself is 0.01 cm3, the most it can hold.
    expect(printedVolumeCm3({ volumeCm3: 0.01, areaCm2: 200, boxCm3: 0.01 }, 1, 1.2, 0.8)).toBe(0.01);
    expect(printedVolumeCm3({ volumeCm3: 0.001, areaCm2: 1200, boxCm3: 1000 }, 0, 1.2, 0)).toBe(0.001);
    // Without a box (a bare measure) the area alone bounds it.
    expect(printedVolumeCm3({ volumeCm3: 0, areaCm2: 10 }, 0, 1.2, 0.8)).toBeCloseTo(0.4, 12);
  });

  it('never changes the price of a model with more volume than its walls need (area / 2 x minimum wall)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e5, noNaN: true }),
        fc.double({ min: 0.04, max: 1e3, noNaN: true }),
        fc.double({ min: 1, max: 10, noNaN: true }),
        fc.integer({ min: 1, max: 5 }),
        (areaCm2, volumePerArea, boxOverVolume, strength) => {
          const volumeCm3 = areaCm2 * volumePerArea;
          const withBox = { volumeCm3, areaCm2, boxCm3: volumeCm3 * boxOverVolume };
          const without = { ...DEFAULT_PRICING, minWallMm: 0 };
          expect(priceUnit(withBox, strength, DEFAULT_PRICING)).toEqual(
            priceUnit(withBox, strength, without),
          );
        },
      ),
    );
  });

  it('refuses a bounding box that is not a number', () => {
    expect(() => priceUnit({ volumeCm3: 1, areaCm2: 1, boxCm3: Number.NaN }, 3, DEFAULT_PRICING)).toThrow(
      /not valid/,
    );
  });
});
