import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pipelineConfigJsonSchema } from '../../cli/pipeline-config-json-schema.js';
import { parsePipelineConfig } from '../../cli/pipeline-config.js';

const shipped = JSON.parse(readFileSync(new URL('../../schema/pipeline-config.schema.json', import.meta.url), 'utf8')) as { properties: { [key: string]: unknown }; additionalProperties: boolean };

describe('the shipped JSON Schema of the pipeline config', () => {
  it('is the one generated from the zod schema (run `npm run schema` after changing cli/pipeline-config.ts)', () => {
    expect(shipped).toEqual(JSON.parse(JSON.stringify(pipelineConfigJsonSchema())));
  });

  it('describes every top-level key, refuses others, and a config may name it in $schema', () => {
    expect(Object.keys(shipped.properties).sort()).toEqual(['$schema', 'metrics', 'minibatch', 'model', 'progress', 'queue', 'schema', 'sinks', 'snapshots', 'source', 'worker'].sort());
    expect(shipped.additionalProperties).toBe(false);
    const config = parsePipelineConfig({ $schema: './node_modules/vbstream/schema/pipeline-config.schema.json', source: { type: 'synthetic', records: 10 }, model: { family: 'vb-linear' } }, 'test');
    expect(config.source.type).toBe('synthetic');
  });
});
