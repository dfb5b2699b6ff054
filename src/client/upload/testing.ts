import type { ModelPayload } from '../../shared/models.ts';

/** What the server answers for a 20 mm cube uploaded as `fileName`, under the id `id`. */
export function cubePayload(id: string, fileName: string): ModelPayload {
  return {
    id,
    fileName,
    format: 'stl',
    triangles: 12,
    volumeCm3: 8,
    areaCm2: 24,
    dimensions: { x: 20, y: 20, z: 20 },
    scale: 1,
    watertight: true,
    fits: true,
    warnings: [],
    previewImage: `/api/models/${id}/preview.png`,
    prices: { '1': 12, '2': 12.4, '3': 13.1, '4': 14.8, '5': 18.35 },
  };
}
