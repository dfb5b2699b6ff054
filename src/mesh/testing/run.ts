// Test helpers: run the analyzer the way the server does, chunk by chunk.

import { type AnalyzerOptions, createMeshAnalyzer } from '../analysis.ts';
import { detectFormat } from '../detect.ts';
import { MeshError } from '../errors.ts';
import type { MeshAnalysis, MeshExtension } from '../types.ts';

/** Analyses bytes pushed as chunks ending at the given offsets (sorted, inside the file). */
export function analyzeSplit(
  bytes: Uint8Array,
  extension: MeshExtension,
  cuts: number[],
  options: AnalyzerOptions = {},
): MeshAnalysis {
  const format = detectFormat(bytes, bytes.length, extension);
  const analyzer = createMeshAnalyzer(format, { totalSize: bytes.length, ...options });
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    const to = Math.max(from, Math.min(bytes.length, cut));
    analyzer.push(bytes.subarray(from, to));
    from = to;
  }
  return analyzer.finish();
}

/** Analyses bytes pushed in chunks of one size. */
export function analyzeChunked(bytes: Uint8Array, extension: MeshExtension, chunk: number): MeshAnalysis {
  const cuts: number[] = [];
  for (let k = chunk; k < bytes.length; k += chunk) cuts.push(k);
  return analyzeSplit(bytes, extension, cuts);
}

/** The analysis, or the MeshError's code; anything else thrown is re-thrown. */
export function outcome(run: () => MeshAnalysis): MeshAnalysis | { error: string; message: string } {
  try {
    return run();
  } catch (e) {
    if (e instanceof MeshError) return { error: e.code, message: e.message };
    throw e;
  }
}

export const text = (s: string) => new TextEncoder().encode(s);
