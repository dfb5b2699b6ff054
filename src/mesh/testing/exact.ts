// Reference volume in double-double arithmetic (~32 significant digits): "exact" for judging the
// analyzer's plain-double sum. Slow (a few hundred flops a triangle); tests and benchmark only.

type DD = [number, number];

function twoSum(a: number, b: number): DD {
  const s = a + b;
  const bb = s - a;
  return [s, a - (s - bb) + (b - bb)];
}

const SPLITTER = 134217729; // 2^27 + 1

function twoProd(a: number, b: number): DD {
  const p = a * b;
  let t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b);
  const bl = b - bh;
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
}

function add(x: DD, y: DD): DD {
  const [s, e] = twoSum(x[0], y[0]);
  const [h, l] = twoSum(s, e + x[1] + y[1]);
  return [h, l];
}

function mul(x: DD, y: DD): DD {
  const [p, e] = twoProd(x[0], y[0]);
  const [h, l] = twoSum(p, e + x[0] * y[1] + x[1] * y[0]);
  return [h, l];
}

function neg(x: DD): DD {
  return [-x[0], -x[1]];
}

/** Six times the signed volume of a triangle soup (9 numbers a triangle), near-exactly. */
export function exactVolume6(tris: ArrayLike<number>): number {
  if (tris.length < 9) return 0;
  const ox = tris[0]!;
  const oy = tris[1]!;
  const oz = tris[2]!;
  let sum: DD = [0, 0];
  for (let k = 0; k + 8 < tris.length; k += 9) {
    const ax = twoSum(tris[k]!, -ox);
    const ay = twoSum(tris[k + 1]!, -oy);
    const az = twoSum(tris[k + 2]!, -oz);
    const bx = twoSum(tris[k + 3]!, -ox);
    const by = twoSum(tris[k + 4]!, -oy);
    const bz = twoSum(tris[k + 5]!, -oz);
    const cx = twoSum(tris[k + 6]!, -ox);
    const cy = twoSum(tris[k + 7]!, -oy);
    const cz = twoSum(tris[k + 8]!, -oz);
    const x = add(mul(by, cz), neg(mul(bz, cy)));
    const y = add(mul(bz, cx), neg(mul(bx, cz)));
    const z = add(mul(bx, cy), neg(mul(by, cx)));
    sum = add(sum, add(add(mul(ax, x), mul(ay, y)), mul(az, z)));
  }
  return sum[0] + sum[1];
}
