import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pipelineConfigJsonSchema } from '../cli/pipeline-config-json-schema.js';

/** Writes schema/pipeline-config.schema.json from the zod schema (run after changing cli/pipeline-config.ts; a test checks it is current). */
const target = resolve(dirname(fileURLToPath(import.meta.url)), '../../schema/pipeline-config.schema.json');
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(pipelineConfigJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${target}\n`);
