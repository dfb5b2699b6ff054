// Downloads a file while reporting how much has arrived (fetch + ReadableStream).

export class LoadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LoadError';
  }
}

/** The size the server announced, or null when it is unknown (e.g. a compressed response). */
export function announcedLength(headers: Headers): number | null {
  if (headers.get('content-encoding')) return null;
  const n = Number(headers.get('content-length'));
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Whole percent (0-100) of a download, or null when its size is unknown. */
export function percentOf(loaded: number, total: number | null): number | null {
  if (!total) return null;
  return Math.max(0, Math.min(100, Math.floor((loaded / total) * 100)));
}

/** '1.5 MB loaded' for a download of unknown size. */
export function loadedText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB loaded`;
  return `${Math.round(bytes / 1024)} KB loaded`;
}

export async function fetchWithProgress(
  url: string,
  onProgress: (loaded: number, total: number | null) => void,
  signal?: AbortSignal,
  onHeaders?: (headers: Headers) => void,
): Promise<ArrayBuffer> {
  const res = await fetch(url, { credentials: 'include', signal });
  if (!res.ok) throw new LoadError(`HTTP ${res.status}`, res.status);
  onHeaders?.(res.headers);
  const total = announcedLength(res.headers);
  onProgress(0, total);
  if (!res.body) {
    const buffer = await res.arrayBuffer();
    onProgress(buffer.byteLength, total);
    return buffer;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress(loaded, total);
  }
  const out = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out.buffer;
}
