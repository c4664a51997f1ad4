import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../../src/core/config-error.js';

/**
 * Path of a compiled model worker entry, `entry` relative to the package root (default the model
 * worker itself; an upper layer's entry registers its value decoders first). Workers run compiled
 * JavaScript: under the `dist/` this file runs from, or the repository's `dist/` when it runs from
 * the TypeScript sources (vitest); `npm run build` (and `npm test`, which builds first) writes it.
 * A missing file throws a `ConfigError` that says so.
 */
export function modelWorkerPath(entry = 'operators/worker/model-worker.js'): string {
  const here = fileURLToPath(import.meta.url);
  const root = resolve(dirname(here), '..', '..');
  const path = join(here.endsWith('.ts') ? join(root, 'dist') : root, entry);
  if (!existsSync(path)) throw new ConfigError(`compiled model worker not found at ${path}: run "npm run build" first (npm test builds)`, { field: 'worker', value: path });
  return path;
}
