import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../shared/catalog.ts';
import { checkModelFile, fileExtension, formatBytes, progressText } from './file-checks.ts';

describe('checkModelFile', () => {
  it('accepts .stl, .obj and .3mf in any case', () => {
    for (const name of [
      'cube.stl',
      'CUBE.STL',
      'part.Obj',
      'a.b.obj',
      '.stl',
      'cube.stl ',
      'plate.3mf',
      'Plate.3MF',
    ]) {
      expect(checkModelFile({ name, size: 1000 }), name).toBeNull();
    }
  });

  it('refuses other extensions with the server message', () => {
    for (const name of ['notes.txt', 'cube.stl.zip', 'cube', 'cube.3mf.zip', 'stl', '3mf']) {
      expect(checkModelFile({ name, size: 10 }), name).toBe('Only .stl, .obj and .3mf files are accepted.');
    }
  });

  it('refuses files above 64 MiB, and accepts exactly 64 MiB', () => {
    expect(checkModelFile({ name: 'a.stl', size: MAX_UPLOAD_BYTES })).toBeNull();
    expect(checkModelFile({ name: 'a.stl', size: MAX_UPLOAD_BYTES + 1 })).toBe(
      'This file is larger than 64 MB.',
    );
  });

  it('reads the last extension', () => {
    expect(fileExtension('x.tar.gz')).toBe('.gz');
    expect(fileExtension('README')).toBe('');
  });
});

describe('sizes', () => {
  it('formats bytes, KB and MB (1 MB = 1024 x 1024 bytes)', () => {
    expect(formatBytes(684)).toBe('684 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(12 * 1024 * 1024)).toBe('12.0 MB');
    expect(formatBytes(MAX_UPLOAD_BYTES)).toBe('64.0 MB');
    expect(formatBytes(Number.NaN)).toBe('0 B');
  });

  it('shows progress in the unit of the total, never above it', () => {
    const MB = 1024 * 1024;
    expect(progressText(3.2 * MB, 12 * MB)).toBe('3.2 MB of 12.0 MB');
    expect(progressText(100 * 1024, 12 * MB)).toBe('0.1 MB of 12.0 MB');
    expect(progressText(5000, 684)).toBe('684 B of 684 B');
    expect(progressText(0, 2048)).toBe('0.0 KB of 2.0 KB');
  });
});
