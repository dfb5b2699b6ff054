export const VIEWER_MSG = {
  loadFailed: 'We could not load this model for viewing.',
  noWebgl: 'Your browser cannot show 3D views here (WebGL is unavailable or turned off).',
} as const;
