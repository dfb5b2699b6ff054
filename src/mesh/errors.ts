// Every refusal of a model is a MeshError: a stable code for the server and tests, and a message in
// plain English that the shop shows to the customer as is (the server answers 422, or 400 for a
// wrong file type).

export type MeshErrorCode =
  | 'empty'
  | 'not-a-model'
  | 'wrong-extension'
  | 'stl-too-small'
  | 'stl-truncated'
  | 'stl-trailing-data'
  | 'stl-syntax'
  | 'obj-syntax'
  | 'obj-index-zero'
  | 'obj-index-out-of-range'
  | 'obj-face-too-small'
  | 'bad-number'
  | 'non-finite'
  | 'out-of-range'
  | 'token-too-long'
  | 'too-many-triangles'
  | 'no-faces'
  | 'all-degenerate'
  /** 3MF: an archive we cannot open (damaged, encrypted, an unknown compression). */
  | '3mf-archive'
  /** 3MF: a ZIP bomb, or more model text than we analyse. */
  | '3mf-too-big'
  /** 3MF: XML that is malformed, not UTF-8, or declares a DOCTYPE. */
  | '3mf-xml'
  /** 3MF: a model that breaks the core specification (no build, a missing object, a bad unit...). */
  | '3mf-model'
  /** Raised by the shop, not the parsers: a surface that encloses no volume cannot be printed. */
  | 'no-volume';

export class MeshError extends Error {
  readonly code: MeshErrorCode;

  constructor(code: MeshErrorCode, message: string) {
    super(message);
    this.name = 'MeshError';
    this.code = code;
  }
}

/** Quotes a piece of the user's file for a message: short, printable, never the whole 10 MB line. */
export function quoteToken(text: string): string {
  const printable = text.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 40 ? `'${printable.slice(0, 37)}...'` : `'${printable}'`;
}
