import { parseArgs } from 'node:util';
import type { OptionDocs } from '../../src/core/option-docs.js';
import { families, getFamily } from '../../src/registry.js';

function optionLines(docs: OptionDocs, indent: string): string[] {
  return Object.entries(docs).flatMap(([key, doc]) => (typeof doc === 'string' ? [`${indent}${key}: ${doc}`] : [`${indent}${key}:`, ...optionLines(doc, `${indent}  `)]));
}

/**
 * `vbstream models`: without an id, one line per registered family (id, task, summary); with ids
 * (or `--json`, for tools), each family with its task, what one update does and what
 * merge/forget mean (its streaming semantics), its traits, whether it offers a bound on the evidence
 * (what `vbstream select` ranks by) and every option with its default.
 */
export function modelsCommand(argv: string[], out: NodeJS.WritableStream = process.stdout): number {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: { json: { type: 'boolean', default: false } } });
  const ids = positionals.length === 0 ? [...families.keys()] : positionals.map((id) => getFamily(id).id);
  const listed = ids.map((id) => {
    const family = getFamily(id);
    return { id, task: family.task, summary: family.summary, semantics: family.semantics, traits: family.traits, evidenceBound: family.evidenceBound, options: family.options };
  });
  if (values.json) {
    out.write(`${JSON.stringify(listed, null, 2)}\n`);
    return 0;
  }
  if (positionals.length === 0) {
    const idWidth = Math.max(...listed.map((family) => family.id.length));
    const taskWidth = Math.max(...listed.map((family) => family.task.length));
    out.write(`${'id'.padEnd(idWidth)}  ${'task'.padEnd(taskWidth)}  summary\n`);
    for (const family of listed) out.write(`${family.id.padEnd(idWidth)}  ${family.task.padEnd(taskWidth)}  ${family.summary}\n`);
    out.write('\nvbstream models <id> for a family\'s streaming semantics and options\n');
    return 0;
  }
  for (const family of listed) {
    const { batching, merge, forget, weights } = family.traits;
    out.write(`${family.id} (${family.task})\n  ${family.summary}\n  streaming: ${family.semantics}\n`);
    out.write(`  batching ${batching}; merge ${merge}; forget ${forget ? 'yes' : 'no'}; record weights ${weights ? 'yes' : 'no'}; evidence bound (vbstream select) ${family.evidenceBound ? 'yes' : 'no'}\n`);
    const options = optionLines(family.options, '    ');
    out.write(options.length === 0 ? '  options: none\n\n' : `  options:\n${options.join('\n')}\n\n`);
  }
  return 0;
}
