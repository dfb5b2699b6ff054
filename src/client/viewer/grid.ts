// The millimetre grid under the model: round cell sizes, the grid a little wider than the model.

// Down to a micron: a closed model is accepted however small (docs/domain.md), and must still be seen.
const CELLS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 50, 100, 500, 1000];
const SMALLEST = CELLS[0]!;
const MAX_DIVISIONS = 30;

export type GridLayout = { size: number; divisions: number; cell: number };

/** `footprint`: the model's larger side on the build plate, in mm. */
export function gridLayout(footprint: number): GridLayout {
  const span = Math.max(Number.isFinite(footprint) && footprint > 0 ? footprint : 1, SMALLEST) * 1.6;
  const cell = CELLS.find((c) => span / c <= MAX_DIVISIONS) ?? CELLS[CELLS.length - 1]!;
  const divisions = Math.max(2, Math.ceil(span / cell / 2) * 2);
  return { size: divisions * cell, divisions, cell };
}
