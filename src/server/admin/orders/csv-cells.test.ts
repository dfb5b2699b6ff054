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
    expect(textCell('\tcmd')).toBe(`"'\tcmd"`);
    expect(textCell('\rcmd')).toBe(`"'\rcmd"`);
    // Only the first character counts.
    expect(textCell('a=b')).toBe('a=b');
  });

  it('quotes a semicolon or a tab, so that no locale starts a formula cell after one (OWASP)', () => {
    // Spreadsheets set to ';' split `x;=1+1` into `x` and a formula; quoted, it is one text cell.
    expect(textCell('Ada;=HYPERLINK("http://evil.example","x")')).toBe(
      `"Ada;=HYPERLINK(""http://evil.example"",""x"")"`,
    );
    expect(textCell('a\t=1+1')).toBe('"a\t=1+1"');
    expect(textCell(';-1')).toBe('";-1"');
    // A cell starting with each formula character: defused, then quoted only when it must be.
    for (const [cell, written] of [
      ['=1+1', "'=1+1"],
      ['+1', "'+1"],
      ['-1', "'-1"],
      ['@A1', "'@A1"],
      ['\t1', `"'\t1"`],
      ['\r1', `"'\r1"`],
      ['\n=1', '"\n=1"'],
      ['"=1"', '"""=1"""'],
    ])
      expect(textCell(cell), JSON.stringify(cell)).toBe(written);
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
