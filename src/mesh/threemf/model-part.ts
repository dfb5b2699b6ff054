// One model part of a 3MF file (3MF core specification, chapter 3-4), read as a stream of XML events:
// its unit, its objects (a mesh, or components that place other objects) and, in the root part, its
// build. Lengths are turned into millimetres here (vertices and translations in this part's unit), so
// parts drawn in different units combine. Elements of extensions we do not use (materials, beam lattices,
// slices, thumbnails) are skipped; a DOCTYPE is refused (OPC forbids it: no entity can be expanded or
// fetched).

import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { MAX_COORDINATE } from '../coordinates.ts';
import { MeshError } from '../errors.ts';
import { MAX_TRIANGLES } from '../geometry.ts';
import { keepShape } from '../keep-shapes.ts';
import { partKey } from './archive.ts';
import { createBytePath } from './fast-path.ts';

export const CORE_NS = 'http://schemas.microsoft.com/3dmanufacturing/core/2015/02';
export const PRODUCTION_NS = 'http://schemas.microsoft.com/3dmanufacturing/production/2015/06';

/** The units of the core specification, in millimetres. */
export const UNITS: Record<string, number> = {
  micron: 0.001,
  millimeter: 1,
  centimeter: 10,
  inch: 25.4,
  foot: 304.8,
  meter: 1000,
};

/** A 3MF transform (row vector times a 4 x 3 matrix: m00 m01 m02 m10 ... m32), translation in mm. */
export type Transform = Float64Array;

export interface MeshObject {
  kind: 'mesh';
  /** x y z per vertex, in mm. */
  vertices: Float64Array;
  /** v1 v2 v3 per triangle. */
  triangles: Int32Array;
}

export interface Reference {
  objectId: string;
  /** The part that defines the object (production extension's p:path), as a part key. */
  part: string;
  transform: Transform | null;
}

export interface ComponentsObject {
  kind: 'components';
  components: Reference[];
}

export type ModelObject = MeshObject | ComponentsObject;

export interface ModelPart {
  unit: string;
  objects: Map<string, ModelObject>;
  /** The build's items; null when the part has no build element. */
  build: Reference[] | null;
}

const INT32_MAX = 2 ** 31 - 1;

class Growable<T extends Float64Array | Int32Array> {
  data: T;
  length = 0;
  constructor(private readonly make: (n: number) => T) {
    // Small at first: a file of many tiny or empty meshes must not cost tens of kilobytes each.
    this.data = make(3 * 16);
  }
  push3(a: number, b: number, c: number) {
    if (this.length + 3 > this.data.length) {
      const next = this.make(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length] = a;
    this.data[this.length + 1] = b;
    this.data[this.length + 2] = c;
    this.length += 3;
  }
  /** Appends values[0, count). */
  append(values: T, count: number) {
    const needed = this.length + count;
    if (needed > this.data.length) {
      let size = this.data.length * 2;
      while (size < needed) size *= 2;
      const next = this.make(size);
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    (this.data as Float64Array).set((values as Float64Array).subarray(0, count), this.length);
    this.length = needed;
  }
  result(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

const NUMBER = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;
const INDEX = /^\s*\d{1,10}\s*$/;

/** saxes' doctype handler: OPC forbids a DTD, and none is ever read. */
export function refuseDoctype(): never {
  throw new MeshError(
    '3mf-xml',
    'This 3MF file declares a document type (DOCTYPE) in its XML, which 3MF does not allow: we did not read it.',
  );
}

function badModel(message: string): MeshError {
  return new MeshError('3mf-model', message);
}

function number(value: string | undefined, what: string): number {
  if (value === undefined || !NUMBER.test(value)) {
    throw badModel(
      value === undefined
        ? `This 3MF file has a ${what} without its value.`
        : `This 3MF file has a ${what} of '${value.slice(0, 40)}', which is not a number.`,
    );
  }
  const v = Number(value);
  if (!(Math.abs(v) <= MAX_COORDINATE)) {
    throw new MeshError(
      'out-of-range',
      `This 3MF file has a ${what} too large to be real (${value.trim()}).`,
    );
  }
  return v;
}

export function parseTransform(value: string, unitMm: number): Transform {
  const parts = value.trim().split(/\s+/);
  if (parts.length !== 12) {
    throw badModel(`This 3MF file has a transform '${value.slice(0, 60)}' that is not 12 numbers.`);
  }
  const m = new Float64Array(12);
  for (let k = 0; k < 12; k++) m[k] = number(parts[k], 'transform value');
  m[9]! *= unitMm;
  m[10]! *= unitMm;
  m[11]! *= unitMm;
  return m;
}

/** Counts triangles over every part of one file, against MAX_TRIANGLES. */
export interface TriangleBudget {
  used: number;
}

/**
 * A streaming reader of one model part: feed its text with write, or its bytes (UTF-8, as archive.ts'
 * readBytes checks them) with writeBytes, then end. partName is its key, used for references without p:path;
 * budget is shared by the parts of one file. `fastLane: false` gives every element to saxes (tests and the
 * bench compare the ways).
 */
export function createModelPartReader(
  partName: string,
  budget: TriangleBudget,
  options: { fastLane?: boolean } = {},
) {
  // Namespaces are resolved here rather than by saxes (a quarter faster on big meshes): declarations are
  // rare past the root, so an element without any shares its parent's prefix map.
  const parser = new SaxesParser({ xmlns: false, position: true });
  const scopes: Array<Record<string, string>> = [{ xml: 'http://www.w3.org/XML/1998/namespace' }];
  const result: ModelPart = { unit: 'millimeter', objects: new Map(), build: null };
  let unitMm = 1;
  let depth = 0;
  let sawModel = false;
  // Where we are: the element path that matters, tracked by depth.
  let resourcesDepth = -1;
  let objectId: string | null = null;
  let objectDepth = -1;
  let vertices: Growable<Float64Array> | null = null;
  let triangles: Growable<Int32Array> | null = null;
  let components: Reference[] | null = null;
  let buildDepth = -1;

  /** An attribute without a prefix (no namespace), or with a prefix bound to uri. */
  const attr = (tag: SaxesTagPlain, local: string, uri = ''): string | undefined => {
    if (uri === '') return tag.attributes[local];
    const scope = scopes[scopes.length - 1]!;
    for (const name in tag.attributes) {
      const colon = name.indexOf(':');
      if (colon > 0 && name.slice(colon + 1) === local && scope[name.slice(0, colon)] === uri) {
        return tag.attributes[name];
      }
    }
    return undefined;
  };

  const reference = (tag: SaxesTagPlain, where: string): Reference => {
    const objectid = attr(tag, 'objectid');
    if (objectid === undefined || !INDEX.test(objectid)) {
      throw badModel(`This 3MF file has ${where} without a valid objectid.`);
    }
    const transform = attr(tag, 'transform');
    const path = attr(tag, 'path', PRODUCTION_NS);
    return {
      objectId: objectid.trim(),
      part: path ? partKey(path) : partName,
      transform: transform === undefined ? null : parseTransform(transform, unitMm),
    };
  };

  const addVertex = (x: string | undefined, y: string | undefined, z: string | undefined) => {
    vertices!.push3(
      number(x, 'vertex x') * unitMm,
      number(y, 'vertex y') * unitMm,
      number(z, 'vertex z') * unitMm,
    );
  };

  /** The largest index of the current mesh's triangles, checked against its vertex count at its end. */
  let largestIndex = -1;

  const countTriangles = (count: number) => {
    budget.used += count;
    if (budget.used > MAX_TRIANGLES) {
      throw new MeshError(
        'too-many-triangles',
        `The model has more than ${MAX_TRIANGLES.toLocaleString('en-US')} triangles: please simplify it before uploading.`,
      );
    }
  };
  const countTriangle = () => countTriangles(1);

  // Indices are kept in an Int32Array, where 2^32 would wrap to vertex 0 and 2^31 turn negative: no object
  // can have that many vertices, so such an index is refused before it is stored.
  const checkIndex = (v: number) => {
    if (v > INT32_MAX) {
      throw badModel(
        `A triangle of object ${objectId} in this 3MF file names vertex ${v}, but the object has ${(vertices?.length ?? 0) / 3} vertices.`,
      );
    }
  };

  /** Three indices already read as plain digits (1 to 10 of them). */
  const addIndices = (v1: number, v2: number, v3: number) => {
    countTriangle();
    checkIndex(v1);
    checkIndex(v2);
    checkIndex(v3);
    largestIndex = Math.max(largestIndex, v1, v2, v3);
    triangles!.push3(v1, v2, v3);
  };

  const addTriangle = (v1: string | undefined, v2: string | undefined, v3: string | undefined) => {
    countTriangle();
    if (
      v1 === undefined ||
      v2 === undefined ||
      v3 === undefined ||
      !INDEX.test(v1) ||
      !INDEX.test(v2) ||
      !INDEX.test(v3)
    ) {
      throw badModel(`Object ${objectId} of this 3MF file has a triangle without three vertex indices.`);
    }
    const [a, b, c] = [Number(v1), Number(v2), Number(v3)];
    checkIndex(a);
    checkIndex(b);
    checkIndex(c);
    largestIndex = Math.max(largestIndex, a, b, c);
    triangles!.push3(a, b, c);
  };

  // The fast lane's view of saxes: the mesh's <vertices> or <triangles> it is in, and the stream position
  // where saxes last stood between two of its children (just after its opening tag or a child's end).
  let container: 'vertex' | 'triangle' | null = null;
  let cleanAt = -1;

  parser.on('doctype', refuseDoctype);

  parser.on('opentag', (tag) => {
    const t = tag as SaxesTagPlain;
    cleanAt = -1;
    depth++;
    let scope = scopes[scopes.length - 1]!;
    for (const name in t.attributes) {
      if (name.charCodeAt(0) === 120 && (name === 'xmlns' || name.startsWith('xmlns:'))) {
        if (scope === scopes[scopes.length - 1]) scope = { ...scope };
        scope[name === 'xmlns' ? '' : name.slice(6)] = t.attributes[name]!;
      }
    }
    scopes.push(scope);
    const colon = t.name.indexOf(':');
    const local = colon < 0 ? t.name : t.name.slice(colon + 1);
    const uri = scope[colon < 0 ? '' : t.name.slice(0, colon)];
    if (depth === 1) {
      if (local !== 'model' || uri !== CORE_NS) {
        throw badModel(`This 3MF file's part '${partName}' is not a 3MF model (its root is <${t.name}>).`);
      }
      sawModel = true;
      const unit = attr(t, 'unit') ?? 'millimeter';
      const factor = UNITS[unit];
      if (factor === undefined) {
        throw badModel(
          `This 3MF file's unit '${unit.slice(0, 40)}' is not one of micron, millimeter, centimeter, inch, foot or meter.`,
        );
      }
      result.unit = unit;
      unitMm = factor;
      return;
    }
    if (uri !== CORE_NS) return;
    const name = local;
    if (depth === 2 && name === 'resources') resourcesDepth = depth;
    else if (depth === 2 && name === 'build') {
      buildDepth = depth;
      result.build ??= [];
    } else if (depth === 3 && resourcesDepth === 2 && name === 'object') {
      const id = attr(t, 'id');
      if (id === undefined || !INDEX.test(id))
        throw badModel('This 3MF file has an object without a valid id.');
      objectId = id.trim();
      if (result.objects.has(objectId)) throw badModel(`This 3MF file defines object ${objectId} twice.`);
      objectDepth = depth;
    } else if (objectId !== null && depth === objectDepth + 1 && name === 'mesh') {
      vertices = new Growable((n) => new Float64Array(n));
      triangles = new Growable((n) => new Int32Array(n));
      largestIndex = -1;
    } else if (objectId !== null && depth === objectDepth + 1 && name === 'components') {
      components = [];
    } else if (name === 'vertex' && vertices !== null && depth === objectDepth + 3) {
      addVertex(attr(t, 'x'), attr(t, 'y'), attr(t, 'z'));
    } else if (name === 'triangle' && triangles !== null && depth === objectDepth + 3) {
      addTriangle(attr(t, 'v1'), attr(t, 'v2'), attr(t, 'v3'));
    } else if (
      (name === 'vertices' || name === 'triangles') &&
      vertices !== null &&
      depth === objectDepth + 2 &&
      colon < 0 &&
      scope === scopes[scopes.length - 2]
    ) {
      // Its children are unprefixed like it, in the same (core) namespace, unless one declares its own.
      container = name === 'vertices' ? 'vertex' : 'triangle';
      cleanAt = parser.position;
    } else if (name === 'component' && components !== null && depth === objectDepth + 2) {
      components.push(reference(t, `a component of object ${objectId}`));
    } else if (name === 'item' && buildDepth === 2 && depth === 3) {
      result.build!.push(reference(t, 'a build item'));
    }
  });

  parser.on('closetag', (tag) => {
    const t = tag as SaxesTagPlain;
    cleanAt = -1;
    if (container !== null) {
      if (depth === objectDepth + 3) cleanAt = parser.position;
      else if (depth <= objectDepth + 2) container = null;
    }
    scopes.pop();
    const local = t.name.slice(t.name.indexOf(':') + 1);
    if (objectId !== null && depth === objectDepth) {
      let object: ModelObject;
      if (vertices !== null && triangles !== null) {
        const v = vertices.result();
        const tri = triangles.result();
        const count = v.length / 3;
        const bad = largestIndex >= count ? tri.find((i) => i >= count) : undefined;
        if (bad !== undefined) {
          throw badModel(
            `A triangle of object ${objectId} in this 3MF file names vertex ${bad}, but the object has ${count} vertices.`,
          );
        }
        object = { kind: 'mesh', vertices: v, triangles: tri };
      } else {
        object = { kind: 'components', components: components ?? [] };
      }
      result.objects.set(objectId, object);
      objectId = null;
      objectDepth = -1;
      vertices = null;
      triangles = null;
      components = null;
    } else if (depth === resourcesDepth && local === 'resources') resourcesDepth = -1;
    else if (depth === buildDepth && local === 'build') buildDepth = -1;
    depth--;
  });

  // The fast lane: a mesh is almost all <vertex x="" y="" z=""/> and <triangle v1="" v2="" v3=""/>, and
  // saxes reads them at ~25 MB/s. Right after saxes has read the opening tag of a mesh's <vertices> or
  // <triangles> (and nothing after it), the lane reads the children that have the plain form itself, through
  // the same addVertex / addTriangle; at the first thing it does not know (the closing tag, a comment, an
  // entity, single quotes, another attribute) it hands the text back to saxes, which stays the judge of
  // everything else. saxes is given text up to a '>' at a time near the places where the lane may start, so
  // it is never in the middle of a tag when the lane takes over. Its error positions count only the text it
  // was given. On bytes (writeBytes), the byte path (fast-path.ts) plays the lane's part, five times faster:
  // WebAssembly reads the children from the bytes, and what it leaves one at a time goes to this lane.
  const fastLane = options.fastLane ?? true;
  /** Text of a child element cut off at the end of a chunk, for the lane's next chunk. */
  let carry = '';
  /** The length of the text saxes has been given. */
  let given = 0;
  /** Children the lane has read (tests check that it ran). */
  let laneElements = 0;

  const give = (text: string) => {
    given += text.length;
    parser.write(text);
  };

  /** saxes reads text from `from` up to the next place the lane may start; returns where it stopped. */
  const toNextLane = (text: string, from: number): number => {
    // One search for either word: two indexOf calls would each scan far past the nearer one, every time.
    LANE_WORD.lastIndex = from;
    const at = LANE_WORD.exec(text)?.index ?? -1;
    const gt = at < 0 ? -1 : text.indexOf('>', at);
    const end = gt < 0 ? text.length : gt + 1;
    give(text.slice(from, end));
    return end;
  };

  const feed = (chunk: string) => {
    if (!fastLane) {
      give(chunk);
      return;
    }
    const text = carry + chunk;
    carry = '';
    let pos = 0;
    while (pos < text.length) {
      if (container === null || cleanAt !== given) {
        pos = toNextLane(text, pos);
        continue;
      }
      const stop = runLane(text, pos, container === 'vertex');
      if (stop >= text.length) return;
      if (stop < 0) {
        // A child cut off by the end of the chunk: read with the next one. A plain child is short: one longer
        // than MAX_CARRY is saxes' (carrying it on would copy it again with every chunk).
        if (text.length + stop + 1 <= MAX_CARRY) {
          carry = text.slice(-stop - 1);
          return;
        }
        pos = toNextLane(text, -stop - 1);
        continue;
      }
      // What the lane does not read, saxes does, up to its '>'; the lane goes on if that was a whole child.
      const gt = text.indexOf('>', stop);
      pos = gt < 0 ? text.length : gt + 1;
      give(text.slice(stop, pos));
    }
  };

  /**
   * Reads plain children from start; returns the position of the first thing it does not read (the text's
   * end when it read all), or -(p + 1) when the text from p on may be a plain child cut off by the chunk.
   */
  const runLane = (text: string, start: number, vertex: boolean): number => {
    const n = text.length;
    const name = vertex ? 'vertex' : 'triangle';
    let i = start;
    for (;;) {
      let c = text.charCodeAt(i);
      while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++i);
      if (i >= n || c !== 60) return i;
      const element = i;
      if (n - i - 1 >= name.length && !text.startsWith(name, i + 1)) return element;
      i += 1 + name.length;
      let seen = 0;
      let x: string | undefined;
      let y: string | undefined;
      let z: string | undefined;
      let v1: string | number | undefined;
      let v2: string | number | undefined;
      let v3: string | number | undefined;
      for (;;) {
        const before = i;
        c = text.charCodeAt(i);
        while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++i);
        if (i + 1 >= n) return -(element + 1);
        if (c === 47) {
          if (text.charCodeAt(i + 1) !== 62) return element;
          i += 2;
          break;
        }
        // An attribute after whitespace: name="value", the value of number characters only.
        if (i === before) return element;
        const nameStart = i;
        while (i < n && isNameChar(text.charCodeAt(i))) i++;
        if (i + 1 >= n) return -(element + 1);
        if (text.charCodeAt(i) !== 61 || text.charCodeAt(i + 1) !== 34) return element;
        const bit = attributeBit(text, nameStart, i, vertex);
        if (bit === 0 || seen & bit) return element;
        seen |= bit;
        const valueStart = i + 2;
        i = valueStart;
        // A triangle's vertex index: plain digits are read here (the same as INDEX and Number would).
        let index = 0;
        c = text.charCodeAt(i);
        while (c >= 48 && c <= 57) {
          index = index * 10 + (c - 48);
          c = text.charCodeAt(++i);
        }
        const plain = c === 34 && i > valueStart && i - valueStart <= 10;
        while (i < n && isValueChar(text.charCodeAt(i))) i++;
        if (i >= n) return -(element + 1);
        if (text.charCodeAt(i) !== 34) return element;
        if (vertex) {
          const value = text.slice(valueStart, i);
          if (bit === 1) x = value;
          else if (bit === 2) y = value;
          else z = value;
        } else if (bit <= 4) {
          const v = plain ? index : text.slice(valueStart, i);
          if (bit === 1) v1 = v;
          else if (bit === 2) v2 = v;
          else v3 = v;
        }
        i++;
      }
      if (vertex) addVertex(x, y, z);
      else if (typeof v1 === 'number' && typeof v2 === 'number' && typeof v3 === 'number') {
        addIndices(v1, v2, v3);
      } else addTriangle(v1?.toString(), v2?.toString(), v3?.toString());
      laneElements++;
    }
  };

  // The byte path (fast-path.ts) takes the lane's place on bytes.
  const bytePath = createBytePath({
    lane: () => (cleanAt === given ? container : null),
    inContainer: () => container !== null,
    give,
    readChild: (text, lane) => runLane(text, 0, lane === 'vertex') === text.length,
    unit: () => unitMm,
    addVertices(xyz, count) {
      vertices!.append(xyz, 3 * count);
      laneElements += count;
    },
    addTriangles(v123, count, largest) {
      countTriangles(count);
      largestIndex = Math.max(largestIndex, largest);
      triangles!.append(v123, 3 * count);
      laneElements += count;
    },
  });
  /** Text for saxes alone (`fastLane: false`). */
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let sawBytes = false;

  const write = (text: string) => {
    try {
      feed(text);
    } catch (err) {
      throw asMeshError(err, partName);
    }
  };
  const writeBytes = (bytes: Uint8Array) => {
    sawBytes = true;
    try {
      if (fastLane) bytePath.write(bytes);
      else give(decoder.decode(bytes, { stream: true }));
    } catch (err) {
      throw asMeshError(err, partName);
    }
  };
  return {
    write,
    writeBytes,
    /** How many children the fast lane (or the byte path) read. */
    laneElements: () => laneElements,
    end(): ModelPart {
      try {
        if (sawBytes) {
          if (fastLane) bytePath.end();
          else give(decoder.decode());
        }
        give(carry);
        carry = '';
        parser.close();
      } catch (err) {
        throw asMeshError(err, partName);
      }
      if (!sawModel) throw badModel(`This 3MF file's part '${partName}' holds no model.`);
      return result;
    },
  };
}

/** Where the lane may start: the tags of a mesh's <vertices> and <triangles>. */
const LANE_WORD = /vertices|triangles/g;

/** The longest text of a cut-off child the lane keeps for the next chunk. */
const MAX_CARRY = 1024;

/**
 * The attribute text[start..end) as one of the lane's bits: x y z, or v1 v2 v3 and the property indices p1 p2
 * p3 pid (materials and colours), which it passes over like saxes; 0 for any other.
 */
function attributeBit(text: string, start: number, end: number, vertex: boolean): number {
  const c = text.charCodeAt(start);
  if (vertex) return end - start !== 1 ? 0 : c === 120 ? 1 : c === 121 ? 2 : c === 122 ? 4 : 0;
  if (end - start === 2) {
    const k = text.charCodeAt(start + 1) - 48;
    if (k < 1 || k > 3) return 0;
    return c === 118 ? 1 << (k - 1) : c === 112 ? 8 << (k - 1) : 0;
  }
  return end - start === 3 && text.startsWith('pid', start) ? 64 : 0;
}

/** Letters and digits: the lane's attribute names (anything else goes to saxes). */
function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}

/** What numbers are written with (anything else, entities included, goes to saxes). */
function isValueChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 45 || c === 43 || c === 101 || c === 69 || c === 32;
}

function asMeshError(err: unknown, partName: string): MeshError {
  if (err instanceof MeshError) return err;
  const detail = err instanceof Error ? err.message.slice(0, 120) : String(err);
  return new MeshError('3mf-xml', `This 3MF file's part '${partName}' is not well-formed XML (${detail}).`);
}

// One instance kept for the thread's life keeps the class's maps across collections (keep-shapes.ts).
keepShape(new Growable((n) => new Float64Array(n)));
