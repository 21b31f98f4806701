import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { landingChunkGroups, planLandingChunks } from './chunks.ts';
import { mantineStylesOnUse } from './mantine-styles.ts';
import { precompress } from './precompress.ts';

const backend = 'http://127.0.0.1:8080';

export default defineConfig(async ({ command }) => {
  // A build first asks Rolldown where the landing pages' modules fall (chunks.ts), then bundles them in three chunks.
  const plan = command === 'build' ? await planLandingChunks([mantineStylesOnUse(), react()]) : new Map();
  return {
    plugins: [mantineStylesOnUse(), react(), precompress()],
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
          codeSplitting: {
            groups: [
              ...landingChunkGroups(plan),
              // The password-strength dictionaries (loaded on demand by the sign-up and reset forms) in two chunks.
              { name: 'zxcvbn-pt-br', test: /@zxcvbn-ts[\\/]language-pt-br/, priority: 40 },
              { name: 'zxcvbn-common', test: /@zxcvbn-ts[\\/](language-common|core)/, priority: 40 },
            ],
          },
        },
      },
    },
  };
});
