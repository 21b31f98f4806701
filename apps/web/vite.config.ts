import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

const backend = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': backend,
      '/t': backend,
      '/collect': backend,
    },
  },
  preview: {
    proxy: {
      '/api': backend,
      '/t': backend,
      '/collect': backend,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      // Rolldown would fold modules shared by lazy pages into the entry chunk, so /signin would download what
      // only the dashboard uses; keep them in chunks of their own, loaded by the pages that need them.
      experimental: { chunkOptimization: false },
      output: {
        // The password-strength dictionaries (loaded on demand by the sign-up and reset forms) in two chunks.
        codeSplitting: {
          groups: [
            { name: 'zxcvbn-pt-br', test: /@zxcvbn-ts[\\/]language-pt-br/ },
            { name: 'zxcvbn-common', test: /@zxcvbn-ts[\\/](language-common|core)/ },
          ],
        },
      },
    },
  },
});
