// Whether an analysed model encloses a volume to print (docs/domain.md): a closed model does however small
// it is, so "no volume" is judged against the model's own size, never an absolute amount: a 1 µm cube drawn
// in a 3MF file's microns is a solid, and a flat sheet the size of a house is not.

import { MeshError } from './errors.ts';
import type { MeshAnalysis } from './types.ts';

/** An open surface enclosing less (mm³) is a surface, not a solid: the rule for open models is absolute. */
export const MIN_OPEN_VOLUME_MM3 = 1;

/**
 * A volume at or below this fraction of area x diagonal is flat: its mean thickness (volume / area) under a
 * millionth of the model's size. A flat surface, closed or not, gets a little volume from rounding in the
 * sum (about 1e-16 of area x diagonal) and from coordinates that are not exactly on its plane (a float32 or
 * 7-digit coordinate is off by up to 1e-7 of its value: about 1e-9 here when the model is near the origin);
 * real parts are far above (1e-2 for the fixtures; a 1 m thread or a 300 mm film 0.01 mm thick: 2.5e-6, 1.2e-5).
 */
const FLAT = 1e-6;

export const NO_VOLUME_MESSAGE =
  'This model encloses no volume (it is a flat or open surface), so there is nothing to print.';

type Measured = Pick<MeshAnalysis, 'volumeCm3' | 'areaCm2' | 'dimensions' | 'watertight'>;

export function enclosesVolume(analysis: Measured): boolean {
  const volume = analysis.volumeCm3 * 1000;
  const area = analysis.areaCm2 * 100;
  const { x, y, z } = analysis.dimensions;
  const flat = FLAT * area * Math.hypot(x, y, z);
  if (!(volume > flat)) return false;
  return analysis.watertight || volume >= MIN_OPEN_VOLUME_MM3;
}

/** Throws the shop's 'no-volume' refusal for a model that encloses no volume. */
export function assertEnclosesVolume(analysis: Measured): void {
  if (!enclosesVolume(analysis)) throw new MeshError('no-volume', NO_VOLUME_MESSAGE);
}
