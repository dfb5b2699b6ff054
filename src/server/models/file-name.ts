import { HttpError } from '../plugins/error-handler.ts';

// The name a customer's file arrives with: only its LAST extension counts, and a name that hides another
// one (`x.php%00.stl`, a NUL byte, `x.stl.php`) is refused before a byte is kept (docs/security.md 24). The
// name is only ever shown and offered back as a download name; files are stored under random keys.

export const ONLY_MODEL_FILES = 'Only .stl, .obj and .3mf files are accepted.';

export type ModelExtension = 'stl' | 'obj' | '3mf';
export type UploadName = { fileName: string; extension: ModelExtension };

const MAX_NAME_LENGTH = 200;
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Invisible format characters (right-to-left override, zero width): dropped from the shown name. */
const FORMAT = /\p{Cf}/gu;

function lastExtension(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot + 1).toLowerCase();
}

function percentDecoded(name: string): string | null {
  if (!/%[0-9a-f]{2}/i.test(name)) return null;
  try {
    return decodeURIComponent(name);
  } catch {
    // A lone '%xx' that is not UTF-8: decode byte by byte, enough to see a NUL or a hidden dot.
    return name.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  }
}

/** The shown name and extension of an upload, or a 400 with the one message for every refusal. */
export function checkUploadName(raw: string | undefined | null): UploadName {
  const refuse = () => new HttpError(400, ONLY_MODEL_FILES);
  if (typeof raw !== 'string') throw refuse();
  const name = raw.normalize('NFC').trim();
  if (name === '' || CONTROL.test(name)) throw refuse();
  const extension = lastExtension(name);
  if (extension !== 'stl' && extension !== 'obj' && extension !== '3mf') throw refuse();
  // `x.php%00.stl` is a NUL-truncation trick; `x.stl%2ephp` hides a different extension.
  const decoded = percentDecoded(name);
  if (decoded !== null && (CONTROL.test(decoded) || lastExtension(decoded) !== extension)) throw refuse();
  // Browsers send a '"' in a multipart file name as %22 (HTML's form encoding): show it as the customer named it.
  let base = name
    .slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1)
    .replace(FORMAT, '')
    .replaceAll('%22', '"');
  const dot = base.lastIndexOf('.');
  const stem = base.slice(0, dot).trim();
  const shownExtension = base.slice(dot + 1);
  base = `${stem === '' ? 'model' : stem}.${shownExtension}`;
  if (base.length > MAX_NAME_LENGTH) {
    let kept = '';
    for (const ch of stem) {
      if (kept.length + ch.length > MAX_NAME_LENGTH - extension.length - 1) break;
      kept += ch;
    }
    base = `${kept}.${shownExtension}`;
  }
  return { fileName: base, extension };
}

/**
 * `attachment` with an ASCII fallback name (quotes, slashes and anything unusual replaced) and the
 * exact name in RFC 5987 form for browsers that read it.
 */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^A-Za-z0-9._ ()-]/g, '_').slice(0, MAX_NAME_LENGTH) || 'model';
  const exact = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}
