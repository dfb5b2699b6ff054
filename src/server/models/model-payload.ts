import type { ModelPayload } from '../../shared/models.ts';
import type { Model } from '../db/schema.ts';
import { pricesByStrength, round } from '../pricing/price-model.ts';
import type { PricingSettings } from '../pricing/settings.ts';
import { modelWarnings, type WarningOptions } from './warnings.ts';

// A model row as the client sees it (src/shared/models.ts modelPayload).

export function previewUrl(id: string): string {
  return `/api/models/${encodeURIComponent(id)}/preview.png`;
}

/**
 * A volume or area as the card shows it: 4 decimals, or 6 significant digits below 1, so that a tiny closed
 * model (shown in mm³) keeps its figure instead of rounding to 0.
 */
function measure(value: number): number {
  return Math.abs(value) >= 1 || value === 0 ? round(value, 4) : Number(value.toPrecision(6));
}

export function toModelPayload(row: Model, pricing: PricingSettings, options: WarningOptions): ModelPayload {
  const dimensions = { x: round(row.dimX, 3), y: round(row.dimY, 3), z: round(row.dimZ, 3) };
  const { fits, warnings } = modelWarnings(
    {
      dimensions: { x: row.dimX, y: row.dimY, z: row.dimZ },
      watertight: row.watertight,
      unitsKnown: row.format === '3mf',
      correctedShells: row.correctedShells,
    },
    options,
  );
  return {
    id: row.id,
    fileName: row.fileName,
    format: row.format === 'obj' || row.format === '3mf' ? row.format : 'stl',
    triangles: row.triangles,
    volumeCm3: measure(row.volumeMm3 / 1000),
    areaCm2: measure(row.areaMm2 / 100),
    dimensions,
    scale: row.scale,
    watertight: row.watertight,
    fits,
    warnings,
    previewImage: previewUrl(row.id),
    prices: pricesByStrength(row, pricing),
  };
}
