import { defineConfig } from 'vitest/config';

// `npm run test:sandbox`: the providers' scenarios against their real sandboxes, when credentials are
// in the environment (each file says which, and is skipped without them). Never part of `npm test`.
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.sandbox.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    maxWorkers: 1,
  },
});
