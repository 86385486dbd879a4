import { defineConfig } from 'vitest/config';

// One run over every package, so the suite ends with a single summary line.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/gateway'],
    // Two cores: two test files at a time.
    maxWorkers: 2,
  },
});
