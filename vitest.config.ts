import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The package's own entry points (examples import them by name, as users do) resolve to the sources.
  resolve: {
    alias: [
      { find: /^vbstream$/, replacement: here('./src/index.ts') },
      { find: /^vbstream\/operators$/, replacement: here('./operators/index.ts') },
      { find: /^vbstream\/kafka$/, replacement: here('./connectors/kafka/index.ts') },
      { find: /^vbstream\/monitoring$/, replacement: here('./monitoring/index.ts') },
      { find: /^vbstream\/files$/, replacement: here('./connectors/file/index.ts') },
      { find: /^vbstream\/linalg$/, replacement: here('./src/linalg/index.ts') },
      { find: /^vbstream\/bandit$/, replacement: here('./src/bandit/index.ts') },
      { find: /^vbstream\/bandit\/kafka$/, replacement: here('./bandit/kafka/index.ts') },
    ],
  },
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
