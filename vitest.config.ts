import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { TEST_TIMEOUT_MS } from './test/helpers/wait-for.js';

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
      { find: /^vbstream\/serve$/, replacement: here('./serve/index.ts') },
    ],
  },
  test: {
    // The bounds of a test and of a wait live in test/helpers/wait-for.ts (generous: the suite holds on a loaded machine).
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: TEST_TIMEOUT_MS,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/kafka/**', 'test/faults/kafka/**'] } },
      {
        extends: true,
        test: {
          name: 'kafka',
          include: ['test/kafka/**/*.test.ts', 'test/faults/kafka/**/*.test.ts'],
          globalSetup: ['test/kafka/global-setup.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
