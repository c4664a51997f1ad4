import { z } from 'zod';
import { pipelineSchema } from './pipeline-config.js';

/**
 * The JSON Schema (draft 2020-12) of a pipeline config file, generated from the zod schema that
 * `vbstream run` validates with (input side: defaults are optional). Shipped as
 * `schema/pipeline-config.schema.json`; point a config's `$schema` at it for editor checks.
 */
export function pipelineConfigJsonSchema(): object {
  return {
    ...z.toJSONSchema(pipelineSchema, { io: 'input', unrepresentable: 'any' }),
    $id: 'https://github.com/vbstream/vbstream/schema/pipeline-config.schema.json',
    title: 'vbstream pipeline configuration',
  };
}
