import { describe, expect, it } from 'vitest';
import { HttpError } from '../plugins/error-handler.ts';
import { attachmentDisposition, checkUploadName, ONLY_MODEL_FILES } from './file-name.ts';

describe('checkUploadName', () => {
  it('accepts .stl, .obj and .3mf in any case, by the last extension', () => {
    expect(checkUploadName('Bracket.STL')).toEqual({ fileName: 'Bracket.STL', extension: 'stl' });
    expect(checkUploadName('Plate 1.3MF')).toEqual({ fileName: 'Plate 1.3MF', extension: '3mf' });
    expect(checkUploadName('part.v2.obj')).toEqual({ fileName: 'part.v2.obj', extension: 'obj' });
    expect(checkUploadName('x.php.stl')).toEqual({ fileName: 'x.php.stl', extension: 'stl' });
    expect(checkUploadName('  Ünïcødé ☃.stl ').fileName).toBe('Ünïcødé ☃.stl');
  });

  it('keeps only the base name of a path', () => {
    expect(checkUploadName('../../etc/cube.stl').fileName).toBe('cube.stl');
    expect(checkUploadName('C:\\Users\\me\\cube.obj').fileName).toBe('cube.obj');
    expect(checkUploadName('.stl').fileName).toBe('model.stl');
  });

  it('refuses hidden extensions, NUL bytes and other types with one message (docs/security.md 24)', () => {
    for (const name of [
      'x.stl.php',
      'x.php%00.stl',
      'x.php\u0000.stl',
      'x.stl%2ephp',
      'x.stl\n.php',
      'x.stl.',
      'model.3mf.zip',
      'noextension',
      '',
      undefined,
      null,
    ]) {
      let error: unknown;
      try {
        checkUploadName(name);
      } catch (e) {
        error = e;
      }
      expect(error, String(name)).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ statusCode: 400, message: ONLY_MODEL_FILES });
    }
  });

  it('drops invisible direction overrides and shortens very long names, keeping the extension', () => {
    expect(checkUploadName('evil\u202egpj.stl').fileName).toBe('evilgpj.stl');
    const long = checkUploadName(`${'a'.repeat(500)}.obj`).fileName;
    expect(long.length).toBe(200);
    expect(long.endsWith('.obj')).toBe(true);
  });
});

describe('attachmentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachmentDisposition('cube.stl')).toBe(
      `attachment; filename="cube.stl"; filename*=UTF-8''cube.stl`,
    );
    expect(attachmentDisposition('a "b";c\\d ☃.stl')).toBe(
      `attachment; filename="a _b__c_d _.stl"; filename*=UTF-8''a%20%22b%22%3Bc%5Cd%20%E2%98%83.stl`,
    );
  });
});
