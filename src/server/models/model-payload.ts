import type { ModelPayload } from '../../shared/models.ts';
import type { Model } from '../db/schema.ts';
import { pricesByStrength, round } from '../pricing/price-model.ts';
import type { PricingSettings } from '../pricing/settings.ts';
import { modelWarnings, type WarningOptions } from './warnings.ts';

// A model row as the client sees it (src/shared/models.ts modelPayload).

export function previewUrl(id: string): string {
  return `/api/models/${encodeURIComponent(id)}/preview.png`;
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
    volumeCm3: round(row.volumeMm3 / 1000, 4),
    areaCm2: round(row.areaMm2 / 100, 4),
    dimensions,
    scale: row.scale,
    watertight: row.watertight,
    fits,
    warnings,
    previewImage: previewUrl(row.id),
    prices: pricesByStrength(row, pricing),
  };
}
