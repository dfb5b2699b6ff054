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
import { partKey } from './archive.ts';

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

class Growable<T extends Float64Array | Int32Array> {
  data: T;
  length = 0;
  constructor(private readonly make: (n: number) => T) {
    this.data = make(3 * 1024);
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
 * A streaming reader of one model part: feed its text with write, then end. partName is its key, used for
 * references without p:path; budget is shared by the parts of one file.
 */
export function createModelPartReader(partName: string, budget: TriangleBudget) {
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

  parser.on('doctype', refuseDoctype);

  parser.on('opentag', (tag) => {
    const t = tag as SaxesTagPlain;
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
    } else if (objectId !== null && depth === objectDepth + 1 && name === 'components') {
      components = [];
    } else if (name === 'vertex' && vertices !== null && depth === objectDepth + 3) {
      vertices.push3(
        number(attr(t, 'x'), 'vertex x') * unitMm,
        number(attr(t, 'y'), 'vertex y') * unitMm,
        number(attr(t, 'z'), 'vertex z') * unitMm,
      );
    } else if (name === 'triangle' && triangles !== null && depth === objectDepth + 3) {
      if (++budget.used > MAX_TRIANGLES) {
        throw new MeshError(
          'too-many-triangles',
          `The model has more than ${MAX_TRIANGLES.toLocaleString('en-US')} triangles: please simplify it before uploading.`,
        );
      }
      const v1 = attr(t, 'v1');
      const v2 = attr(t, 'v2');
      const v3 = attr(t, 'v3');
      if (
        v1 === undefined ||
        v2 === undefined ||
        v3 === undefined ||
        ![v1, v2, v3].every((v) => INDEX.test(v))
      ) {
        throw badModel(`Object ${objectId} of this 3MF file has a triangle without three vertex indices.`);
      }
      triangles.push3(Number(v1), Number(v2), Number(v3));
    } else if (name === 'component' && components !== null && depth === objectDepth + 2) {
      components.push(reference(t, `a component of object ${objectId}`));
    } else if (name === 'item' && buildDepth === 2 && depth === 3) {
      result.build!.push(reference(t, 'a build item'));
    }
  });

  parser.on('closetag', (tag) => {
    const t = tag as SaxesTagPlain;
    scopes.pop();
    const local = t.name.slice(t.name.indexOf(':') + 1);
    if (objectId !== null && depth === objectDepth) {
      let object: ModelObject;
      if (vertices !== null && triangles !== null) {
        const v = vertices.result();
        const tri = triangles.result();
        const count = v.length / 3;
        for (let k = 0; k < tri.length; k++) {
          if (tri[k]! >= count) {
            throw badModel(
              `A triangle of object ${objectId} in this 3MF file names vertex ${tri[k]}, but the object has ${count} vertices.`,
            );
          }
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

  const write = (text: string) => {
    try {
      parser.write(text);
    } catch (err) {
      throw asMeshError(err, partName);
    }
  };
  return {
    write,
    end(): ModelPart {
      try {
        parser.close();
      } catch (err) {
        throw asMeshError(err, partName);
      }
      if (!sawModel) throw badModel(`This 3MF file's part '${partName}' holds no model.`);
      return result;
    },
  };
}

function asMeshError(err: unknown, partName: string): MeshError {
  if (err instanceof MeshError) return err;
  const detail = err instanceof Error ? err.message.slice(0, 120) : String(err);
  return new MeshError('3mf-xml', `This 3MF file's part '${partName}' is not well-formed XML (${detail}).`);
}
