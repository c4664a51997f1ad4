import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/reference.js';

/**
 * The Node versions package.json declares are the ones the installed dependencies accept (issue 29,
 * item 1), read from each resolved package's own package.json. The only exceptions are the two
 * helper packages of the default Kafka client that declare Node ≥ 22.19: every version of them does,
 * no version of @platformatic/kafka that has the admin calls the port uses goes without them, and
 * they work on Node 20 (this suite, the Kafka project included, runs there). A new dependency that
 * raises the floor fails here.
 */
const ABOVE_OUR_FLOOR = ['@platformatic/dynamic-buffer', '@platformatic/wasm-utils'];

type Version = readonly [number, number, number];

const parse = (text: string): Version => {
  const [major = 0, minor = 0, patch = 0] = text.replace(/\.x$/, '').split('.').map(Number);
  return [major, minor, patch];
};
const compare = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** The lowest version from which a range accepts every later one: the least of its `>=` clauses (`^16 || >=20`: 20.0.0); undefined without one. */
function floorOf(range: string): Version | undefined {
  const floors = range.split('||').flatMap((clause) => /^\s*>=\s*(\d+(?:\.\d+|\.x){0,2})\s*$/.exec(clause)?.[1] ?? []);
  return floors.map(parse).sort(compare)[0];
}

describe('the declared Node versions', () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } };
  const ours = floorOf(pkg.engines.node);

  it('are a floor the running Node meets', () => {
    expect(ours, pkg.engines.node).toBeDefined();
    expect(compare(parse(process.versions.node), ours!)).toBeGreaterThanOrEqual(0);
  });

  it('are accepted by every package a user installs (package-lock, engines read from node_modules)', () => {
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: { [path: string]: { dev?: boolean; engines?: { node?: string } } } };
    const above: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === '' || entry.dev === true) continue;
      const installed = join(repoRoot, path, 'package.json');
      const engines = existsSync(installed) ? (JSON.parse(readFileSync(installed, 'utf8')) as { engines?: { node?: string } }).engines : entry.engines;
      const range = typeof engines === 'object' && engines !== null ? engines.node : undefined;
      if (range === undefined) continue;
      const floor = floorOf(range);
      expect(floor, `${path}: engines.node "${range}"`).toBeDefined();
      if (compare(floor!, ours!) > 0) above.push(`${path.replace(/^.*node_modules\//, '')} (${range})`);
    }
    expect(above.map((entry) => entry.split(' ')[0]).sort()).toEqual(ABOVE_OUR_FLOOR);
  });
});
