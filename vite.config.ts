import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The client lives in src/client; `npm run dev` proxies /api to the server on :3000 (or PORT).
export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [react()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    chunkSizeWarningLimit: 700,
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://localhost:${process.env.PORT ?? 3000}` } },
  },
});
