// Apart from the (lazily loaded) viewer, so that the pages that open it do not load it early.

/** The viewer's mesh of a model, made by the server from its own reading of the file (view-mesh.ts). */
export const viewMeshUrl = (modelId: string) => `/api/models/${encodeURIComponent(modelId)}/view.glb`;

/**
 * The model's coarse view (answered while a big upload's view mesh is still being made, else 204) and its
 * preview picture, beside a view mesh URL; null for any other URL.
 */
export function viewCompanions(url: string): { coarse: string; preview: string } | null {
  const match = /^(\/api\/models\/[^/?#]+)\/view\.glb$/.exec(url);
  if (!match) return null;
  return { coarse: `${match[1]}/view-coarse.glb`, preview: `${match[1]}/preview.png` };
}
