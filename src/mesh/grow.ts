/** a, copied into one at least `least` long and at least twice as long (what was there kept, 0 after). */
export function growInt32(a: Int32Array, least: number): Int32Array {
  const next = new Int32Array(Math.max(least, a.length * 2));
  next.set(a);
  return next;
}
