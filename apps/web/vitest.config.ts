import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // jsdom + Mantine is CPU-heavy: a user-event flow that takes 3 s on a quiet 2-core box took 20–28 s while other
    // work shared it. The limit only catches a hung test; what a test asserts never depends on time.
    testTimeout: 60_000,
    // A worker keeps React, Mantine and the page modules from one file to the next: each file still renders into a
    // clean document (setup.ts cleans the DOM, storage, stubs and mocks after every test), 155 → 81 s on 2 cores.
    isolate: false,
  },
});
