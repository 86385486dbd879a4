import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Sandbox tests reach real providers: only `npm run test:sandbox` runs them.
    exclude: [...configDefaults.exclude, '**/*.sandbox.test.ts'],
    // The first run fetches the providers' API descriptions from the npm registry and compiles validators.
    hookTimeout: 300_000,
  },
});
