import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Sandbox tests call the providers' real test endpoints: only `npm run test:sandbox` runs them.
    exclude: [...configDefaults.exclude, '**/*.sandbox.test.ts'],
    // The first run fetches the providers' API descriptions from the npm registry (45 MB).
    hookTimeout: 180_000,
  },
});
