import { type ShopFieldKey, type ShopValues, settingLabel } from '../../../shared/admin-settings.ts';
import { type FieldProblem, FormProblem, numberText, requireNumber } from './form-numbers.ts';

// The shop form: the build volume's three axes and the upload retention as typed, read back into the API's
// values (the server checks the ranges).

export type ShopForm = Record<ShopFieldKey, string>;

export function shopToForm(v: ShopValues): ShopForm {
  return {
    'buildVolumeMm.x': numberText(v.buildVolumeMm.x),
    'buildVolumeMm.y': numberText(v.buildVolumeMm.y),
    'buildVolumeMm.z': numberText(v.buildVolumeMm.z),
    uploadRetentionHours: numberText(v.uploadRetentionHours),
  };
}

export function formToShop(form: ShopForm): { values: ShopValues } | FieldProblem {
  const read = (key: ShopFieldKey) => requireNumber(form[key], key, settingLabel('shop', key));
  try {
    return {
      values: {
        buildVolumeMm: {
          x: read('buildVolumeMm.x'),
          y: read('buildVolumeMm.y'),
          z: read('buildVolumeMm.z'),
        },
        uploadRetentionHours: read('uploadRetentionHours'),
      },
    };
  } catch (err) {
    if (err instanceof FormProblem) return err.problem;
    throw err;
  }
}
