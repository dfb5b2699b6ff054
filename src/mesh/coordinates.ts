// The one rule for coordinate values, shared by all parsers.

import { MeshError } from './errors.ts';

/** Larger magnitudes are refused: float32 tops out at 3.4e38, and no printable part is near. */
export const MAX_COORDINATE = 1e38;

/**
 * The error for a value that failed `Math.abs(v) <= MAX_COORDINATE`; where says e.g. 'on line 12'.
 * literal: the number as written in a text file (there, an infinity means an overflowing number).
 */
export function badCoordinate(v: number, where: string, literal?: string): MeshError {
  if (Number.isNaN(v) || (literal === undefined && !Number.isFinite(v))) {
    return new MeshError(
      'non-finite',
      `The model has coordinates that are not numbers (NaN or infinity), ${where}.`,
    );
  }
  const shown = literal !== undefined && literal.length <= 24 ? literal : v.toPrecision(3);
  return new MeshError(
    'out-of-range',
    `The model has a coordinate too large to be real (${shown} mm), ${where}.`,
  );
}
