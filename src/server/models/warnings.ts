import type { ModelWarning } from '../../shared/models.ts';

// The shop's own warnings about a model (docs/domain.md), recomputed from the row and the configuration
// every time, so a changed build volume applies to models already uploaded.

export type Size = { x: number; y: number; z: number };

export type WarningOptions = {
  buildVolumeMm: Size;
  /** Below this in every dimension, a model looks like it was designed in inches. */
  smallModelMm: number;
};

export const DEFAULT_SMALL_MODEL_MM = 10;

export const WARNING_TEXT = {
  notWatertight: 'This model has holes in its surface (not watertight); we will print it as well as we can',
  insideOut: 'Part of this model was inside out: we corrected it.',
  maybeInches: 'This model is very small: was it designed in inches?',
  tooBig: (b: Size) => `This model does not fit our printer (${b.x} x ${b.y} x ${b.z} mm)`,
};

const sorted = (s: Size) => [s.x, s.y, s.z].sort((a, b) => a - b);

/** Fits the build volume in some orientation of its axes: smallest to smallest, largest to largest. */
export function fitsBuildVolume(dimensions: Size, build: Size): boolean {
  const d = sorted(dimensions);
  const b = sorted(build);
  return d.every((v, k) => v <= b[k]!);
}

/** Whether a model row fits the build volume (the checkout refuses one that does not). */
export function modelFits(model: { dimX: number; dimY: number; dimZ: number }, build: Size): boolean {
  return fitsBuildVolume({ x: model.dimX, y: model.dimY, z: model.dimZ }, build);
}

export function modelWarnings(
  /**
   * unitsKnown: the file says its unit (3MF), so a small model is small, not drawn in inches.
   * correctedShells: closed parts the analysis found inside out and turned outward (src/mesh/shells.ts).
   */
  model: { dimensions: Size; watertight: boolean; unitsKnown?: boolean; correctedShells?: number },
  options: WarningOptions,
): { fits: boolean; warnings: ModelWarning[] } {
  const warnings: ModelWarning[] = [];
  if (!model.watertight) warnings.push({ code: 'not_watertight', message: WARNING_TEXT.notWatertight });
  if ((model.correctedShells ?? 0) > 0)
    warnings.push({ code: 'inside_out', message: WARNING_TEXT.insideOut });
  const { x, y, z } = model.dimensions;
  if (!model.unitsKnown && Math.max(x, y, z) < options.smallModelMm) {
    warnings.push({ code: 'maybe_inches', message: WARNING_TEXT.maybeInches });
  }
  const fits = fitsBuildVolume(model.dimensions, options.buildVolumeMm);
  if (!fits) warnings.push({ code: 'too_big', message: WARNING_TEXT.tooBig(options.buildVolumeMm) });
  return { fits, warnings };
}
