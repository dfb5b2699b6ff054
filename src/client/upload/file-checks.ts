import { MAX_UPLOAD_BYTES, MODEL_EXTENSIONS } from '../../shared/catalog.ts';
import { UPLOAD_MSG } from './upload-messages.ts';

// The checks made before a file is sent, and the sizes shown while it uploads.

/** '.stl' for 'Cube.STL'; '' when the name has no extension. */
export function fileExtension(name: string): string {
  const base = name.trim();
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot).toLowerCase();
}

/** The reason a file cannot be uploaded, or null when it may be sent. */
export function checkModelFile(file: { name: string; size: number }): string | null {
  if (!(MODEL_EXTENSIONS as readonly string[]).includes(fileExtension(file.name)))
    return UPLOAD_MSG.wrongType;
  if (file.size > MAX_UPLOAD_BYTES) return UPLOAD_MSG.tooLarge;
  return null;
}

const KB = 1024;
const MB = 1024 * 1024;

type Unit = 'B' | 'KB' | 'MB';

function unitFor(bytes: number): Unit {
  if (bytes >= MB) return 'MB';
  if (bytes >= KB) return 'KB';
  return 'B';
}

function inUnit(bytes: number, unit: Unit): string {
  const n = Math.max(0, Number.isFinite(bytes) ? bytes : 0);
  if (unit === 'MB') return `${(n / MB).toFixed(1)} MB`;
  if (unit === 'KB') return `${(n / KB).toFixed(1)} KB`;
  return `${Math.round(n)} B`;
}

/** 12582912 -> '12.0 MB' (1 MB = 1024 x 1024 bytes, as in the 64 MB limit). */
export function formatBytes(bytes: number): string {
  return inUnit(bytes, unitFor(bytes));
}

/** '3.2 MB of 12.0 MB': both in the unit of the total, the part never above the total. */
export function progressText(loaded: number, total: number): string {
  const unit = unitFor(total);
  return `${inUnit(Math.min(loaded, total), unit)} of ${inUnit(total, unit)}`;
}
