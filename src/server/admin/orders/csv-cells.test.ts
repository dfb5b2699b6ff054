import { describe, expect, it } from 'vitest';
import { csvLine, moneyCell, numberCell, textCell } from './csv-cells.ts';

describe('CSV cells', () => {
  it('quotes commas, quotes and line breaks (RFC 4180), doubling the quotes', () => {
    expect(textCell('plain')).toBe('plain');
    expect(textCell('Lovelace, Ada')).toBe('"Lovelace, Ada"');
    expect(textCell('the "big" one')).toBe('"the ""big"" one"');
    expect(textCell('two\nlines')).toBe('"two\nlines"');
    expect(textCell('cr\r\nlf')).toBe('"cr\r\nlf"');
    expect(textCell(null)).toBe('');
  });

  it('defuses a cell a spreadsheet would take for a formula with a leading apostrophe', () => {
    expect(textCell('=HYPERLINK("http://evil.example","x")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""x"")"`,
    );
    expect(textCell('+1+2')).toBe("'+1+2");
    expect(textCell('-2+3')).toBe("'-2+3");
    expect(textCell('@SUM(A1:A2)')).toBe("'@SUM(A1:A2)");
    expect(textCell('\tcmd')).toBe("'\tcmd");
    expect(textCell('\rcmd')).toBe(`"'\rcmd"`);
    // Only the first character counts.
    expect(textCell('a=b')).toBe('a=b');
  });

  it('writes money as plain numbers with two decimals, never prefixed', () => {
    expect(moneyCell(1250)).toBe('12.50');
    expect(moneyCell(108000)).toBe('1080.00');
    expect(moneyCell(0)).toBe('0.00');
    expect(moneyCell(null)).toBe('');
    expect(numberCell(12)).toBe('12');
    expect(csvLine(['a', '"b,c"'])).toBe('a,"b,c"\r\n');
  });
});
