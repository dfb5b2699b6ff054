import fs from 'node:fs';

// Debian's Chromium, never a downloaded browser. CHROME_PATH wins; otherwise the usual Debian paths.

export function findChromium(): string | undefined {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p): p is string => !!p && fs.existsSync(p));
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // WebGL (the three.js viewer) on SwiftShader in headless runs.
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];
