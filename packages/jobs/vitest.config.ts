import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Embedded databases (PGlite, the schema engine's wasm) take seconds to start and to diff a
    // schema; on a 2-core machine running the other packages' tests at once, several times more.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
