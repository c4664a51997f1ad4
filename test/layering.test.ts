import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/reference.js';

/**
 * The layers, lowest first: a file may import from its own layer and the layers below it, never
 * from one above (`src` is the pure library; `monitoring` records about it; `operators` are the
 * streaming runtime; `connectors` feed the runtime from files and Kafka; `bandit` serves decisions on
 * it; `serve` scores requests with hot-swapped posteriors; `cli` puts it all together).
 */
const LAYERS = ['src', 'monitoring', 'operators', 'connectors', 'bandit', 'serve', 'cli'] as const;

function files(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function layerOf(path: string): number {
  return LAYERS.indexOf(relative(repoRoot, path).split(sep)[0] as (typeof LAYERS)[number]);
}

/** Relative imports of every file of the layers, resolved to the `.ts` files they name. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const layer of LAYERS) {
    for (const file of files(join(repoRoot, layer))) {
      const text = readFileSync(file, 'utf8');
      const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)].map((m) => resolve(dirname(file), m[1]).replace(/\.js$/, '.ts'));
      graph.set(file, targets);
    }
  }
  return graph;
}

describe('layering: src < monitoring < operators < connectors < bandit < serve < cli', () => {
  it('no file imports from a layer above its own', () => {
    const violations: string[] = [];
    for (const [file, targets] of importGraph()) {
      for (const target of targets) if (layerOf(target) > layerOf(file)) violations.push(`${relative(repoRoot, file)} imports ${relative(repoRoot, target)}`);
    }
    expect(violations).toEqual([]);
  });

  it('no import cycle (two modules that need each other are one idea split in two)', () => {
    const graph = importGraph();
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]): void => {
      state.set(file, 'open');
      for (const target of graph.get(file) ?? []) {
        if (state.get(target) === 'open') cycles.push([...path.slice(path.indexOf(target)), target].map((f) => relative(repoRoot, f)).join(' → '));
        else if (state.get(target) === undefined && graph.has(target)) visit(target, [...path, target]);
      }
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (state.get(file) === undefined) visit(file, [file]);
    expect(cycles).toEqual([]);
  });

  it('examples use the package as its users do: public entry points, never the sources of the library', () => {
    const reaching: string[] = [];
    for (const file of files(join(repoRoot, 'examples'))) {
      for (const [, target] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
        const layer = relative(repoRoot, resolve(dirname(file), target)).split(sep)[0];
        if ((LAYERS as readonly string[]).includes(layer)) reaching.push(`${relative(repoRoot, file)} → ${target}`);
      }
    }
    expect(reaching).toEqual([]);
  });
});
