// A 3MF file, whole: the package's start part (named by _rels/.rels), every model part its build reaches
// through the production extension's p:path (as Bambu Studio writes them), and the analysis of what the
// build places, through the same sinks as STL and OBJ.

import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { type AnalyzerOptions, toAnalysis } from '../analysis.ts';
import { CollectSink } from '../collect.ts';
import { MeshError } from '../errors.ts';
import { Geometry, MAX_TRIANGLES } from '../geometry.ts';
import { Topology } from '../topology.ts';
import type { MeshAnalysis, TriangleSink } from '../types.ts';
import { type Archive, NOT_A_ZIP, openArchive, type PartPlace, partKey } from './archive.ts';
import type { EarlyPart, EarlyParts } from './early-parts.ts';
import { createModelPartReader, type ModelPart, refuseDoctype, type TriangleBudget } from './model-part.ts';
import { emitInstances, type Instance, measureInstances, resolveBuild } from './scene.ts';

const MODEL_RELATIONSHIP = 'http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel';
const DEFAULT_START_PART = '3D/3dmodel.model';
const RELATIONSHIPS = '_rels/.rels';
const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

export interface ThreeMfModel {
  instances: Instance[];
  triangles: number;
  /** The start part's unit ('millimeter', 'inch'...). */
  unit: string;
  /** Hands every triangle of the build to sink (as often as needed: the preview, the view mesh). */
  emit(sink: TriangleSink): void;
}

/** The start part named by the package relationships, else the usual name. */
export async function startPart(archive: Archive): Promise<string> {
  if (!archive.has(RELATIONSHIPS)) return DEFAULT_START_PART;
  const parser = new SaxesParser({ xmlns: false });
  let target: string | null = null;
  parser.on('doctype', refuseDoctype);
  parser.on('opentag', (tag) => {
    const t = tag as SaxesTagPlain;
    const local = t.name.slice(t.name.indexOf(':') + 1);
    if (local === 'Relationship' && t.attributes.Type === MODEL_RELATIONSHIP && target === null) {
      target = t.attributes.Target ?? null;
    }
  });
  try {
    await archive.readText(RELATIONSHIPS, (text) => parser.write(text));
    parser.close();
  } catch (err) {
    if (err instanceof MeshError) throw err;
    throw new MeshError(
      '3mf-xml',
      "This 3MF file's package relationships (_rels/.rels) are not well-formed XML.",
    );
  }
  return target ?? DEFAULT_START_PART;
}

/**
 * How model parts are read: 'bytes' (the byte path, fast-path.ts), 'text' (decoded, with the text fast
 * lane: the reader before the byte path) or 'saxes' (decoded, every element by saxes). All read the same;
 * tests and the bench compare them.
 */
export type PartReading = 'bytes' | 'text' | 'saxes';

async function readPart(
  archive: Archive,
  name: string,
  budget: TriangleBudget,
  reading: PartReading,
  early: EarlyParts | undefined,
): Promise<ModelPart> {
  if (!archive.has(name)) {
    throw new MeshError(
      '3mf-model',
      `This 3MF file refers to the model part '/${name}', which is not in the archive.`,
    );
  }
  const read = early?.get(partKey(name));
  // Read while the file arrived, from the same bytes: counted as if read now. Over the triangle budget it is
  // read again (below), for the refusal the reading gives where it gives it.
  if (
    read &&
    reading === 'bytes' &&
    samePlace(read, archive.place(name)!) &&
    budget.used + read.triangles <= MAX_TRIANGLES
  ) {
    archive.admit(name);
    budget.used += read.triangles;
    early!.delete(partKey(name)); // taken once
    return read.part;
  }
  const reader = createModelPartReader(partKey(name), budget, { fastLane: reading !== 'saxes' });
  if (reading === 'bytes') await archive.readBytes(name, reader.writeBytes);
  else await archive.readText(name, reader.write);
  return reader.end();
}

/** Whether a part read early lies where the central directory places the part of its name. */
function samePlace(read: EarlyPart, place: PartPlace): boolean {
  return (
    read.place.localHeaderOffset === place.localHeaderOffset &&
    read.place.compressionMethod === place.compressionMethod &&
    read.place.compressedSize === place.compressedSize &&
    read.place.uncompressedSize === place.uncompressedSize
  );
}

export async function read3mf(
  bytes: Uint8Array,
  options: {
    reading?: PartReading;
    /** Parts read while the file arrived (early-parts.ts): each used only where it lies as read. */
    early?: EarlyParts;
  } = {},
): Promise<ThreeMfModel> {
  const reading = options.reading ?? 'bytes';
  if (!ZIP_SIGNATURE.every((b, k) => bytes[k] === b)) {
    throw new MeshError(
      bytes.length === 0 ? 'empty' : 'not-a-model',
      bytes.length === 0 ? 'The file is empty.' : NOT_A_ZIP,
    );
  }
  const archive = await openArchive(bytes);
  // Parts read early where the directory does not place them are let go at once (their memory).
  for (const [key, read] of options.early ?? []) {
    const place = archive.place(key);
    if (!place || !samePlace(read, place)) options.early!.delete(key);
  }
  try {
    const start = (await startPart(archive)).replace(/^\/+/, '');
    if (!archive.has(start)) {
      throw new MeshError('3mf-model', `This 3MF file has no 3D model: its part '${start}' is missing.`);
    }
    const rootKey = partKey(start);
    const budget: TriangleBudget = { used: 0 };
    const parts = new Map<string, ModelPart>([
      [rootKey, await readPart(archive, rootKey, budget, reading, options.early)],
    ]);
    // The parts that other parts' components name, each read once.
    const queue = [rootKey];
    while (queue.length > 0) {
      const part = parts.get(queue.shift()!)!;
      const refs = [...(part.build ?? [])];
      for (const object of part.objects.values())
        if (object.kind === 'components') refs.push(...object.components);
      for (const ref of refs) {
        if (parts.has(ref.part)) continue;
        parts.set(ref.part, await readPart(archive, ref.part, budget, reading, options.early));
        queue.push(ref.part);
      }
    }
    options.early?.clear(); // parts the build does not use
    const { instances, triangles } = resolveBuild(parts, rootKey);
    return {
      instances,
      triangles,
      unit: parts.get(rootKey)!.unit,
      emit: (sink) => emitInstances(instances, sink),
    };
  } finally {
    archive.close();
  }
}

const UNIT_NAMES: Record<string, string> = {
  micron: 'microns',
  centimeter: 'centimetres',
  inch: 'inches',
  foot: 'feet',
  meter: 'metres',
};

/** The analysis of a 3MF model, and its triangles for a one-pass preview when there are at most collect. */
export function analyse3mf(
  model: ThreeMfModel,
  options: Pick<AnalyzerOptions, 'topology' | 'collectTriangles'> = {},
): { analysis: MeshAnalysis; triangles: Float32Array | null } {
  // Its faces in shared memory: a big model's census runs on the helper thread while this one measures.
  const topology = options.topology === false ? null : new Topology(model.triangles, { sharedFaces: true });
  const geometry = new Geometry();
  // Kept only when they are all kept (CollectSink gives up past its cap): a small model's emit is cheap.
  const cap = options.collectTriangles ?? 0;
  let triangles: Float32Array | null = null;
  if (cap > 0 && model.triangles <= cap) {
    const collect = new CollectSink(cap);
    model.emit(collect);
    triangles = collect.result();
  }
  measureInstances(model.instances, geometry, topology);
  const unitName = UNIT_NAMES[model.unit];
  const warnings = unitName
    ? [`This 3MF file is drawn in ${unitName}: its sizes were converted to millimetres.`]
    : [];
  const g = geometry.result();
  const analysis = toAnalysis('3mf', g, topology ? topology.result(g) : null, { warnings });
  return { analysis, triangles };
}
