// V8 gives a class's instances their hidden classes ("maps") field by field: the constructor holds the
// first, and each later one lives only while some object has it. An analysis makes its Geometry, welders,
// parsers and sinks afresh and drops them all at its end: once a collection had run between two analyses (a
// worker idle between uploads, the bench's gc()), the next analysis got new maps, which threw away the
// optimized code of every hot loop that checked the old ones, and their type feedback. The loops then ran in
// the interpreter until they were optimized again: a 500,000-triangle 3MF analysis took ~65 ms instead of
// ~47, a 16 MB OBJ's 127 ms instead of 92. One small instance of each such class, kept for the thread's
// life, keeps its maps. Its fields must have the representation they will have in use: a field made with 0
// that later holds 1.5 moves every object to a new map, which nothing would keep (Geometry keeps its sums in
// a Float64Array for that reason).

const kept = new Map<unknown, object>();

/** Keeps instance for the life of the thread, the first one given for its class. */
export function keepShape(instance: object): void {
  if (!kept.has(instance.constructor)) kept.set(instance.constructor, instance);
}
