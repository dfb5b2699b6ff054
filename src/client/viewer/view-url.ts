// Apart from the (lazily loaded) viewer, so that the pages that open it do not load it early.

/** The viewer's mesh of a model, made by the server from its own reading of the file (view-mesh.ts). */
export const viewMeshUrl = (modelId: string) => `/api/models/${encodeURIComponent(modelId)}/view.glb`;
