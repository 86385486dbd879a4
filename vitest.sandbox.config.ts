import { defineConfig } from 'vitest/config';

// `npm run test:sandbox`: the provider scenarios against the providers' real test endpoints. Each
// file skips itself, saying why, when its credentials are not in the environment.
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.sandbox.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    maxWorkers: 1,
  },
});
