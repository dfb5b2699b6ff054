import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { MeshError } from '../errors.ts';
import { createObjParser } from '../obj.ts';
import { createAsciiStlParser } from '../stl-ascii.ts';
import type { ChunkParser, TriangleSink } from '../types.ts';
import { compileTextFast } from './compile.ts';
import { ObjEngine, StlEngine } from './text-engine.ts';
import { TEXT_FAST_WASM } from './text-fast.wasm.ts';

// The fast paths (WebAssembly) must take only what the state machines take, read it to the same bits,
// and leave the rest to them: each file here is read with and without them, cut into the same chunks,
// and must give the same triangles (and ids) or the same error.

type Make = (sink: TriangleSink, fastPath: boolean) => ChunkParser;

const stl: Make = (sink, fastPath) => createAsciiStlParser(sink, { fastPath });
const obj: Make = (sink, fastPath) => createObjParser(sink, { fastPath });

/** Every triangle's coordinates as bit patterns (so -0 and 0 differ), its ids, or the error. */
function read(make: Make, bytes: Uint8Array, cuts: number[], fastPath: boolean): string[] {
  const out: string[] = [];
  const sink: TriangleSink = {
    triangles(positions, ids, n) {
      const bits = new Uint32Array(Float64Array.from(positions.subarray(0, 9 * n)).buffer);
      out.push(`${bits.join(',')}|${ids ? Array.from(ids.subarray(0, 3 * n)).join(',') : ''}`);
    },
  };
  try {
    const parser = make(sink, fastPath);
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      const to = Math.max(from, Math.min(bytes.length, cut));
      parser.push(bytes.subarray(from, to));
      from = to;
    }
    parser.finish();
  } catch (e) {
    if (!(e instanceof MeshError)) throw e;
    out.push(`${e.code}: ${e.message}`);
  }
  return out;
}

function same(make: Make, text: string, cuts: number[]): void {
  const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
  expect(read(make, bytes, cuts, true)).toEqual(read(make, bytes, cuts, false));
}

const cuts = fc.array(fc.nat(6000), { maxLength: 6 }).map((c) => c.sort((a, b) => a - b));

/** Numbers as exporters write them, and (rarely, so that most facets are whole) a few odd ones. */
const number = fc.oneof(
  {
    weight: 40,
    arbitrary: fc
      .double({ min: -3000, max: 3000, noNaN: true })
      .chain((x) =>
        fc.constantFrom(
          x.toFixed(3),
          x.toFixed(6),
          x.toFixed(9),
          x.toExponential(6),
          x.toExponential(8).toUpperCase(),
          x.toPrecision(17),
          x.toPrecision(15),
          String(Math.round(x)),
          String(x),
        ),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '+1.5',
      '.5',
      '-.25',
      '1.',
      '-0',
      '0.000000000000000000001',
      '12345678901234567890',
      '1e5',
      '1e+005',
      '2.5e-3',
      '1e39',
      '-2e38',
      'nan',
      '1.#IND',
      '0x10',
      '1.2.3',
      '1e',
      'abc',
      '9007199254740993',
      '128.00000000000000',
    ),
  },
);

const blank = fc.constantFrom(
  ' ',
  ' ',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\n      ',
  ' \n\n ',
  '\r\n    ',
  '\n\n          \n    ',
  '\r\n\t\t\t\t\t\t\t\t\r\n',
);

function cased(word: string) {
  return fc.constantFrom(word, word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1));
}

/** A facet as tokens: usually whole and plain, sometimes with a token dropped, doubled or wrong. */
const facet = fc
  .tuple(
    cased('facet'),
    cased('normal'),
    fc.array(number, { minLength: 3, maxLength: 3 }),
    cased('outer'),
    cased('loop'),
    fc.array(fc.tuple(cased('vertex'), fc.array(number, { minLength: 3, maxLength: 3 })), {
      minLength: 3,
      maxLength: 3,
    }),
    cased('endloop'),
    cased('endfacet'),
  )
  .map(([f, n, normal, o, l, vertices, el, ef]) => [
    f,
    n,
    ...normal,
    o,
    l,
    ...vertices.flatMap(([v, xyz]) => [v, ...xyz]),
    el,
    ef,
  ]);

const brokenFacet = fc
  .tuple(facet, fc.nat(), fc.constantFrom('drop', 'double', 'garbage', 'glue', 'cut', 'vertex'))
  .map(([tokens, at, how]) => {
    const k = at % tokens.length;
    const t = [...tokens];
    if (how === 'drop') t.splice(k, 1);
    else if (how === 'double') t.splice(k, 0, t[k]!);
    else if (how === 'garbage') t[k] = 'foo';
    else if (how === 'glue') t.splice(k, 2, t[k]! + (t[k + 1] ?? 'x'));
    else if (how === 'cut') t[k] = t[k]!.slice(0, -1) || 'x';
    else t.splice(k, 0, 'vertex', '1', '2', '3');
    return t;
  });

function join(tokens: string[], blanks: string[]): string {
  return tokens.map((t, k) => t + blanks[k % blanks.length]).join('');
}

const stlFile = fc
  .tuple(
    fc.array(fc.oneof({ weight: 8, arbitrary: facet }, { weight: 1, arbitrary: brokenFacet }), {
      minLength: 1,
      maxLength: 12,
    }),
    fc.array(blank, { minLength: 1, maxLength: 5 }),
    fc.boolean(),
  )
  .map(
    ([facets, blanks, crlf]) =>
      `solid part${crlf ? '\r\n' : '\n'}${facets.map((t) => join(t, blanks)).join('')}endsolid part\n`,
  );

const corner = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 12 }).map(String) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 12 }), fc.constantFrom('/1', '/1/1', '//1', '/', '/-1/-1'))
      .map(([i, rest]) => `${i}${rest}`),
  },
  { weight: 1, arbitrary: fc.constantFrom('-1', '-3', '0', '99', '-99', '1.5', 'x', '12345678', '+2') },
);

const objLine = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.array(number, { minLength: 3, maxLength: 3 }).map((xyz) => `v ${xyz.join(' ')}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.array(number, { minLength: 2, maxLength: 4 }), fc.constantFrom(' ', '\t', '  '))
      .map(([xyz, s]) => `v${s}${xyz.join(s)}`),
  },
  { weight: 5, arbitrary: fc.array(corner, { minLength: 3, maxLength: 5 }).map((c) => `f ${c.join(' ')}`) },
  {
    weight: 1,
    arbitrary: fc.array(corner, { minLength: 0, maxLength: 70 }).map((c) => `f\t${c.join('\t')}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '# a comment',
      'vt 0.5 0.5',
      'vn 0 0 1',
      'vt\t1 1',
      'o part',
      'g side',
      'usemtl red',
      's off',
      'l 1 2',
      'v 1 2 \\',
      'f 1 2 \\',
      '',
      'vp 1 2',
      'v1 2 3',
      'vt1 2',
      'f1 2 3',
      'f 1 2 3x',
      'f 1 2/ 3',
      'f 1 2 3/1/1/1',
      'v 1 2 3x',
      'v 1 2 3 4 5 6',
    ),
  },
);

const objFile = fc
  .tuple(
    fc.array(fc.array(number, { minLength: 3, maxLength: 3 }), { minLength: 3, maxLength: 6 }),
    fc.array(objLine, { minLength: 1, maxLength: 30 }),
    fc.constantFrom('\n', '\r\n', ' \n', '\n\n'),
  )
  .map(([first, lines, nl]) => [...first.map((xyz) => `v ${xyz.join(' ')}`), ...lines].join(nl) + nl);

describe('the text fast paths (WebAssembly)', () => {
  it('are the compiled text-fast.as.ts (npm run build:wasm after changing it)', async () => {
    const fresh = await compileTextFast();
    expect(Buffer.from(fresh).toString('base64')).toBe(TEXT_FAST_WASM);
  }, 60_000);

  it('read ASCII STL exactly as the state machine does, or leave it to it', () => {
    fc.assert(
      fc.property(stlFile, cuts, (text, at) => same(stl, text, at)),
      { numRuns: 1500 },
    );
  });

  it('read OBJ exactly as the state machine does, or leave it to it', () => {
    fc.assert(
      fc.property(objFile, cuts, (text, at) => same(obj, text, at)),
      { numRuns: 1500 },
    );
  });

  it('take every facet and line written in the usual forms themselves', () => {
    let facets = 0;
    let lines = 0;
    const readFacets = StlEngine.prototype.readFacets;
    vi.spyOn(StlEngine.prototype, 'readFacets').mockImplementation(function (this: StlEngine, ...args) {
      const n = readFacets.apply(this, args);
      facets += n;
      return n;
    });
    const readLines = ObjEngine.prototype.readLines;
    vi.spyOn(ObjEngine.prototype, 'readLines').mockImplementation(function (this: ObjEngine, ...args) {
      readLines.apply(this, args);
      lines += this.vertexCount;
      for (let w = 0; w < this.faceWords; w += this.faces[w]! + 1) lines++;
    });
    const x = (k: number) => ((k * 7.123456789) % 3000) - 1500.0625;
    const styles: ((v: number) => string)[] = [
      (v) => v.toFixed(3),
      (v) => v.toFixed(6),
      (v) => v.toFixed(9),
      (v) => v.toExponential(6),
      (v) => v.toExponential(8).toUpperCase(),
      (v) => v.toPrecision(17),
      (v) => String(Math.round(v)),
      (v) => String(v),
    ];
    try {
      for (const [s, style] of styles.entries()) {
        const nl = s % 2 === 0 ? '\n' : '\r\n';
        const indent = s % 3 === 0 ? '\t' : '  ';
        let stlText = `solid usual${nl}`;
        for (let k = 0; k < 300; k += 3) {
          stlText += `${indent}facet normal 0 0 1${nl}${indent}${indent}outer loop${nl}`;
          for (let c = 0; c < 3; c++) {
            stlText += `${indent.repeat(3)}VERTEX ${style(x(k + c))} ${style(x(k + c + 1))} ${style(x(k + c + 2))}${nl}`;
          }
          stlText += `${indent}${indent}endloop${nl}${indent}EndFacet${nl}`;
        }
        // In one chunk: a facet or line across two chunks is the state machine's.
        facets = 0;
        same(stl, `${stlText}endsolid usual${nl}`, []);
        expect(facets, `facets taken by the fast path, style ${s}`).toBe(100);

        let objText = `# usual${nl}`;
        for (let k = 0; k < 100; k++) {
          objText += `v ${style(x(k))} ${style(x(k + 1))} ${style(x(k + 2))}${nl}vt 0.5 0.5${nl}vn 0 0 1${nl}`;
        }
        const corners = (n: number, form: (i: number) => string) =>
          Array.from({ length: n }, (_, i) => form(1 + ((i * 7) % 100))).join(' ');
        for (const form of [
          String,
          (i: number) => `${i}/${i}`,
          (i: number) => `${i}//${i}`,
          (i: number) => `${i}/${i}/${i}`,
          (i: number) => String(i - 101),
        ]) {
          objText += `f ${corners(3, form)}${nl}f  ${corners(4, form)}${nl}f\t${corners(64, form)} ${nl}`;
        }
        lines = 0;
        same(obj, objText, []);
        expect(lines, `lines taken by the fast path, style ${s}`).toBe(100 + 15);
      }
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('leave near-miss keywords and glued tokens to the state machines', () => {
    const plain = 'facet normal 0 0 1 outer loop vertex 0 0 0 vertex 1 0 0 vertex 0 1 0 endloop endfacet';
    const misses = [
      ['facet normal', 'facetnormal'],
      ['outer loop', 'outerloop'],
      ['vertex 1', 'vertex1'],
      ['endloop endfacet', 'endloopendfacet'],
      ['endfacet', 'endfacetx'],
      ['endfacet', 'endface'],
      ['normal 0', 'normals 0'],
      ['0 1 0', '0 1 0vertex'],
      ['0 1 0', '0 1 0.'],
      ['0 1 0', '0 1 .'],
    ];
    for (const [from, to] of misses) {
      same(stl, `solid s\n${plain}\n${plain.replace(from!, to!)}\n${plain}\nendsolid\n`, []);
    }
    for (const line of [
      `f 1/${'1'.repeat(5000)} 2 3`,
      `f 1//${'2'.repeat(4095)} 2 3`,
      `f 1/${'1'.repeat(3000)}/${'1'.repeat(3000)} 2 3`,
      'v 1 2 3x',
      'v 1 2',
      'v 1 2 3 4',
      'vt 1 2',
      'v\t1\t2\t3\t',
      'f 1 2 3x',
      'f 1 2',
      'f 1 2 3/',
      'f 1 2 3//',
    ]) {
      same(obj, `v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n${line}\nf 1 2 3\n`, []);
    }
  });

  it('give the same answers on a file cut at every byte', () => {
    const facetText = (x: number) =>
      `facet normal 0 0 1\n outer loop\n  vertex ${x} 0 0\n  vertex 0 ${x}.5 0\n  vertex 0 0 1e-1\n endloop\nendfacet\n`;
    const stlText = `solid s\n${facetText(1)}${facetText(-2.25)}FACET NORMAL 0 0 0 OUTER LOOP VERTEX +1 2 3 VERTEX 1 2 3 VERTEX 1 2 3 ENDLOOP ENDFACET\nendsolid s\n`;
    const objText =
      'v 1 2 3\nv 4.5 6 7\r\nvt 0 0\nv -1e-1 0 0\n# note\nf 1 2 3\nf -1 -2 -3 1\nf 1/1 2//2 3/3/3\n';
    for (let cut = 0; cut <= stlText.length; cut++) same(stl, stlText, [cut]);
    for (let cut = 0; cut <= objText.length; cut++) same(obj, objText, [cut]);
  });

  it('grow their memory for a range longer than usual', () => {
    // One line of 300 kB before the facets: the chunker hands it over in one range.
    const name = 'x'.repeat(300_000);
    const facetText =
      'facet normal 0 0 1 outer loop vertex 0 0 0 vertex 1 0 0 vertex 0 1 0 endloop endfacet ';
    same(stl, `solid ${name}\n${facetText.repeat(3000)}endsolid\n`, []);
    same(
      obj,
      `# ${name}\n${'v 0 0 0\nv 1 0 0\nv 0 1 0\n'.repeat(5000)}${'f 1 2 3\n'.repeat(5000)}`,
      [100_000],
    );
  });
});
