import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Sandbox tests reach real providers: only `npm run test:sandbox` runs them.
    exclude: [...configDefaults.exclude, '**/*.sandbox.test.ts'],
    // The first run fetches Stripe's description from the npm registry and compiles its validators.
    hookTimeout: 300_000,
  },
});
