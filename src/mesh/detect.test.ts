import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect.ts';
import { MeshError } from './errors.ts';
import { box, toAsciiStl, toBinaryStl, toObj, triangles } from './testing/generate.ts';
import { text } from './testing/run.ts';

function refusal(
  bytes: Uint8Array,
  ext: 'stl' | 'obj',
  size = bytes.length,
): { code: string; message: string } {
  try {
    detectFormat(bytes, size, ext);
  } catch (e) {
    if (e instanceof MeshError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('detectFormat accepted the file');
}

const cube = triangles(box(10, 10, 10));

describe('detectFormat', () => {
  it('reads a binary STL by its size, even when its header starts with "solid"', () => {
    const bytes = toBinaryStl(cube, 'solid cube exported by some CAD tool');
    expect(detectFormat(bytes, bytes.length, 'stl')).toBe('stl-binary');
    expect(detectFormat(toBinaryStl(cube, ''), bytes.length, 'stl')).toBe('stl-binary');
  });

  it('reads text starting with solid as ASCII STL, in any case and after a BOM or spaces', () => {
    expect(detectFormat(toAsciiStl(cube), 1000, 'stl')).toBe('stl-ascii');
    expect(detectFormat(toAsciiStl(cube, { upperCase: true }), 1000, 'stl')).toBe('stl-ascii');
    expect(detectFormat(text('\ufeff  solid x\n'), 11, 'stl')).toBe('stl-ascii');
  });

  it('reads OBJ by its name once it is text', () => {
    expect(detectFormat(toObj(box(1, 1, 1)), 300, 'obj')).toBe('obj');
  });

  it('refuses an empty file', () => {
    expect(refusal(new Uint8Array(0), 'stl')).toEqual({ code: 'empty', message: 'The file is empty.' });
    expect(refusal(new Uint8Array(0), 'obj').code).toBe('empty');
  });

  it('refuses images, archives, documents and scripts renamed .stl or .obj', () => {
    const cases: Array<[number[] | string, string]> = [
      [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'a PNG image'],
      [[0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0], 'a ZIP archive'],
      [[0xff, 0xd8, 0xff, 0xe0], 'a JPEG image'],
      ['%PDF-1.7\n', 'a PDF document'],
      ['<?php echo "hi"; ?>', 'a PHP script'],
      ['<!DOCTYPE html><html>', 'an HTML page'],
      ['#!/bin/sh\nrm -rf /\n', 'a script'],
    ];
    for (const [content, what] of cases) {
      const bytes = typeof content === 'string' ? text(content) : Uint8Array.from(content);
      const padded = new Uint8Array(200);
      padded.set(bytes);
      for (const ext of ['stl', 'obj'] as const) {
        const r = refusal(padded, ext);
        expect(r.code, `${what} as .${ext}`).toBe('not-a-model');
        expect(r.message).toContain(what);
      }
    }
  });

  it('refuses a header count that does not match the size, without trusting it', () => {
    const bytes = toBinaryStl(cube);
    const huge = bytes.slice();
    new DataView(huge.buffer).setUint32(80, 0xffffffff, true);
    expect(refusal(huge, 'stl')).toEqual({
      code: 'stl-truncated',
      message: 'This STL file is truncated: its header promises 4294967295 triangles but the file holds 12.',
    });
    const short = bytes.subarray(0, bytes.length - 50);
    expect(refusal(short, 'stl').message).toBe(
      'This STL file is truncated: its header promises 12 triangles but the file holds 11.',
    );
    const long = new Uint8Array(bytes.length + 120);
    long.set(bytes);
    expect(refusal(long, 'stl')).toEqual({
      code: 'stl-trailing-data',
      message: 'This STL file has 120 bytes of extra data after the 12 triangles its header promises.',
    });
  });

  it('tolerates fewer stray bytes than one record after the last triangle', () => {
    const bytes = toBinaryStl(cube);
    const padded = new Uint8Array(bytes.length + 1);
    padded.set(bytes);
    padded[bytes.length] = 10;
    expect(detectFormat(padded, padded.length, 'stl')).toBe('stl-binary');
  });

  it('refuses binary files shorter than a binary STL header, without a RangeError', () => {
    for (const n of [1, 10, 80, 83]) {
      const r = refusal(new Uint8Array(n), 'stl');
      expect(r.code).toBe('stl-too-small');
      expect(r.message).toBe(
        `This file is too small to be an STL model: ${n} bytes, where a binary STL needs at least 84.`,
      );
    }
  });

  it('names a model saved with the wrong extension', () => {
    expect(refusal(toObj(box(1, 1, 1)), 'stl')).toEqual({
      code: 'wrong-extension',
      message: 'This file is named .stl but holds an OBJ model: rename it to .obj.',
    });
    expect(refusal(toAsciiStl(cube), 'obj').code).toBe('wrong-extension');
  });

  it('refuses other text as .stl and binary data as .obj', () => {
    expect(refusal(text('hello world, this is not a model at all'), 'stl').code).toBe('not-a-model');
    expect(refusal(toBinaryStl(cube), 'obj').code).toBe('not-a-model');
  });
});
