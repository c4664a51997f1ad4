import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run bench`: runs every compiled `bench/*.bench.js` in its own Node process, one after the
 * other (so one benchmark's JIT state and garbage do not colour the next), or only those whose
 * name contains one of the command-line arguments.
 */
const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here).filter((f) => f.endsWith('.bench.js')).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n=== ${file.replace(/\.js$/, '')} ===\n`);
  const result = spawnSync(process.execPath, [join(here, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
