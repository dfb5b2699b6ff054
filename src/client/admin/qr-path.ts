import QRCode from 'qrcode';

// A QR code as one SVG path (the qrcode library's module matrix), so the page draws it with React: no
// markup string is ever parsed.

export type QrPath = { size: number; d: string };

/** The dark modules of `text`'s QR code as a path in a (size x size) box, with a 4-module quiet zone. */
export function qrPath(text: string): QrPath {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col += 1;
        continue;
      }
      // A run of dark modules in a row is one rectangle.
      const startCol = col;
      while (col < modules.size && modules.get(row, col)) col += 1;
      parts.push(`M${startCol + quiet} ${row + quiet}h${col - startCol}v1h${startCol - col}z`);
    }
  }
  return { size: modules.size + quiet * 2, d: parts.join('') };
}
