import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/kafka/**', 'test/faults/kafka/**'] } },
      {
        extends: true,
        test: {
          name: 'kafka',
          include: ['test/kafka/**/*.test.ts', 'test/faults/kafka/**/*.test.ts'],
          globalSetup: ['test/kafka/global-setup.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
