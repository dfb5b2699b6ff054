import { describe, expect, it } from 'vitest';
import { PREVIEW_COLOR_IDS, previewColorId, previewInColor } from './preview-color.ts';

// Which colour a line's preview asks for: one id per catalog colour, named by hex or name.

describe('previewColorId', () => {
  it('names every catalog colour by its lower-case name, from its hex or its name in any case', () => {
    expect(PREVIEW_COLOR_IDS).toEqual(['blue', 'red', 'green', 'yellow', 'black', 'white', 'gray']);
    expect(previewColorId('#dc3545')).toBe('red');
    expect(previewColorId('#DC3545')).toBe('red');
    expect(previewColorId(' Red ')).toBe('red');
    expect(previewColorId('gray')).toBe('gray');
    for (const unknown of ['#123456', 'purple', '', null, undefined])
      expect(previewColorId(unknown)).toBeNull();
  });
});

describe('previewInColor', () => {
  const path = '/api/models/m_abc/preview.png';

  it('asks for the line colour on a preview path of this shop, replacing any other', () => {
    expect(previewInColor(path, '#dc3545')).toBe(`${path}?color=red`);
    expect(previewInColor(`${path}?color=blue`, 'green')).toBe(`${path}?color=green`);
  });

  it('leaves signed links, other addresses and unknown colours as they are', () => {
    const signed = `${path}?color=red&exp=123&sig=abc`;
    expect(previewInColor(signed, 'blue')).toBe(signed);
    expect(previewInColor('https://elsewhere.example/x.png', 'red')).toBe('https://elsewhere.example/x.png');
    expect(previewInColor('/api/models/m_abc/file', 'red')).toBe('/api/models/m_abc/file');
    expect(previewInColor(path, '#123456')).toBe(path);
  });
});
