/**
 * A model of up to this many triangles gets its preview and view mesh in its upload's own worker task, from
 * the triangles the analysis kept in memory; a bigger one's are made after the upload answers, in the
 * same task, from the mesh the analysis welded (analyze-worker.ts, extras-service.ts' followUpload).
 */
export const INLINE_EXTRAS_TRIANGLES = 200_000;
