import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../../src/core/config-error.js';

/**
 * Path of the compiled model worker. Workers run compiled JavaScript: beside this file when it runs
 * from `dist/`, and `dist/operators/worker/model-worker.js` of the repository when it runs from the
 * TypeScript sources (vitest); `npm run build` (and `npm test`, which builds first) writes it.
 * A missing file throws a `ConfigError` that says so.
 */
export function modelWorkerPath(): string {
  const here = fileURLToPath(import.meta.url);
  const path = here.endsWith('.ts') ? join(resolve(dirname(here), '..', '..'), 'dist', 'operators', 'worker', 'model-worker.js') : join(dirname(here), 'model-worker.js');
  if (!existsSync(path)) throw new ConfigError(`compiled model worker not found at ${path}: run "npm run build" first (npm test builds)`, { field: 'worker', value: path });
  return path;
}
