import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/reference.js';

const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: { [name: string]: string } };
const examples = Object.entries(scripts).filter(([name]) => name.startsWith('example:'));

/** `npm run example:*` runs from the existing build when it is up to date, and examples/README.md says what the Kafka example needs. */
describe('the example scripts', () => {
  it('build only what changed (tsc -b against its build info), never the whole project from scratch', () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
    expect(scripts['build:changed']).toMatch(/^tsc -b tsconfig\.json && node dist\/scripts\/copy-live-assets\.js$/);
    for (const [name, command] of examples) expect(command, name).toMatch(/^npm run build:changed && node dist\/examples\/[a-z-]+\/main\.js$/);
  });

  it('examples/README.md says the Kafka example needs Java 17 and what the set-up installs', () => {
    const readme = readFileSync(join(repoRoot, 'examples/README.md'), 'utf8');
    expect(readme).toMatch(/Java 17/);
    expect(readme).toMatch(/scripts\/setup\.sh/);
    expect(readme).toMatch(/npm run kafka:fetch/);
  });
});
