import {
  type AdminPricingPreviewPayload,
  PREVIEW_QUANTITIES,
  PREVIEW_SAMPLES,
  type PreviewPrice,
} from '../../../shared/admin-settings.ts';
import { STRENGTHS } from '../../../shared/catalog.ts';
import type { Db } from '../../db/client.ts';
import { MODEL_NOT_FOUND } from '../../models/access.ts';
import { isModelId } from '../../models/ids.ts';
import { findModel } from '../../models/models-repository.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { type LinePrice, type Measure, PricingInputError, priceLine } from '../../pricing/price.ts';
import { measureOf } from '../../pricing/price-model.ts';
import type { PricingSettings } from '../../pricing/settings.ts';
import { loadPricingSettings } from '../../pricing/settings-repository.ts';
import { SettingsInputError } from './validate.ts';

// POST /api/admin/settings/pricing/preview: a sample priced at every strength and a few quantities with the
// pricing in force ("before") and with the admin's unsaved values ("after"), by the shop's own price function.
// Nothing is saved. A sample is a built-in shape (synthetic measures) or any stored model: admins see all.

type Sample = { info: AdminPricingPreviewPayload['sample']; measure: Measure };

export const SAMPLE_MSG = 'Choose one of the sample shapes, or give the id of a stored model.';

async function sampleOf(db: Db, sample: string): Promise<Sample> {
  const builtIn = PREVIEW_SAMPLES.find((s) => s.id === sample);
  if (builtIn) {
    const { x, y, z } = builtIn.dimensions;
    return {
      info: { ...builtIn, dimensions: { x, y, z } },
      measure: { volumeCm3: builtIn.volumeCm3, areaCm2: builtIn.areaCm2, boxCm3: (x * y * z) / 1000 },
    };
  }
  if (!isModelId(sample)) throw new SettingsInputError(SAMPLE_MSG, 'sample');
  const model = await findModel(db, sample);
  if (!model) throw new HttpError(404, MODEL_NOT_FOUND);
  const measure = measureOf(model);
  return {
    info: {
      id: model.id,
      label: model.fileName,
      volumeCm3: measure.volumeCm3,
      areaCm2: measure.areaCm2,
      dimensions: { x: model.dimX, y: model.dimY, z: model.dimZ },
    },
    measure,
  };
}

function shown(p: LinePrice): PreviewPrice {
  return {
    unitCents: p.unitCents,
    lineCents: p.lineCents,
    discountPercent: p.discountPercent,
    minimumApplied: p.minimumApplied,
  };
}

export async function previewPricing(
  db: Db,
  values: PricingSettings,
  sample: string,
): Promise<AdminPricingPreviewPayload> {
  const { info, measure } = await sampleOf(db, sample);
  const inForce = await loadPricingSettings(db);
  const rows: AdminPricingPreviewPayload['rows'] = [];
  try {
    for (const { level } of STRENGTHS) {
      for (const quantity of PREVIEW_QUANTITIES) {
        rows.push({
          strength: level,
          quantity,
          before: shown(priceLine(measure, level, quantity, inForce)),
          after: shown(priceLine(measure, level, quantity, values)),
        });
      }
    }
  } catch (err) {
    // Values within their ranges can still price a huge model beyond what a price may be.
    if (err instanceof PricingInputError) throw new HttpError(400, err.message);
    throw err;
  }
  return { sample: info, rows };
}
