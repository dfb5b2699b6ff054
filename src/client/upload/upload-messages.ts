// The upload tool's texts. The file checks say exactly what the server says for the same files.

export const UPLOAD_MSG = {
  wrongType: 'Only .stl, .obj and .3mf files are accepted.',
  tooLarge: 'This file is larger than 64 MB.',
  tooMany: 'Too many uploads. Please wait a moment and try again.',
  network: 'Network error or server issue. Please try again later.',
  unreadableAnswer: 'The server sent an answer we could not read. Please try again.',
  failed: (status: number) => `The upload failed (status ${status}). Please try again.`,
  scaleFailed: (status: number) => `We could not rescale this model (status ${status}). Please try again.`,
  quoteFailed: 'We could not update the price just now; the price shown is the standard one.',
  tooBig: 'This model is larger than our printers can build, so it cannot be added to the cart.',
} as const;
