import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PIPELINE } from '../../cli/default-pipeline.js';
import { parsePipelineConfig } from '../../cli/pipeline-config.js';
import { ConfigError } from '../../src/core/config-error.js';
import { repoRoot } from '../helpers/reference.js';

describe('pipeline config: metrics and rate', () => {
  it('examples/pipeline.json is valid and declares its metrics endpoint; the embedded default serves on 9464', () => {
    const example = parsePipelineConfig(JSON.parse(readFileSync(join(repoRoot, 'examples/pipeline.json'), 'utf8')), 'examples/pipeline.json');
    expect(example.metrics).toEqual({ port: 9464, host: '127.0.0.1', pipeline: 'example' });
    expect(parsePipelineConfig(DEFAULT_PIPELINE, 'embedded default').metrics).toEqual({ port: 9464, host: '127.0.0.1', pipeline: 'default' });
  });

  it('the embedded default (`npm start`) learns with adf-logit, the family the README recommends (issue 28, item 10)', () => {
    expect(parsePipelineConfig(DEFAULT_PIPELINE, 'embedded default').model.family).toBe('adf-logit');
  });

  it('metrics: false turns the endpoint off; a port outside 0–65535 and a non-positive rate are refused with their paths', () => {
    const base = { source: { type: 'synthetic' }, model: { family: 'vb-logit-online' } };
    expect(parsePipelineConfig({ ...base, metrics: false }, 'test').metrics).toBe(false);
    expect(() => parsePipelineConfig({ ...base, metrics: { port: 70_000 } }, 'test')).toThrow(/metrics\.port: Too big/);
    expect(parsePipelineConfig({ ...base, metrics: { port: 1, host: '0.0.0.0' } }, 'test').metrics).toEqual({ port: 1, host: '0.0.0.0', pipeline: 'default' });
    expect(() => parsePipelineConfig({ ...base, metrics: { port: 1, hots: '0.0.0.0' } }, 'test')).toThrow(/Unrecognized key: "hots"/);
    expect(() => parsePipelineConfig({ ...base, source: { type: 'synthetic', rate: 0 } }, 'test')).toThrow(ConfigError);
    expect(parsePipelineConfig({ ...base, source: { type: 'synthetic', rate: 250 } }, 'test').source).toMatchObject({ rate: 250 });
  });

  it('schema.maxAbsInput bounds |feature|, |label| and |weight| (optional: 1e12 by default); below 1 or not a finite number is refused with its path', () => {
    const base = { source: { type: 'jsonl', path: 'x.jsonl' }, model: { family: 'vb-linear' } };
    expect(parsePipelineConfig(base, 'test').schema).toEqual({ label: 'y' });
    expect(parsePipelineConfig({ ...base, schema: { maxAbsInput: 1e15 } }, 'test').schema).toEqual({ label: 'y', maxAbsInput: 1e15 });
    expect(() => parsePipelineConfig({ ...base, schema: { maxAbsInput: 0.5 } }, 'test')).toThrow(/schema\.maxAbsInput: Too small/);
    expect(() => parsePipelineConfig({ ...base, schema: { maxAbsInput: '1e6' } }, 'test')).toThrow(/schema\.maxAbsInput/);
  });
});

describe('pipeline config: reserved keys', () => {
  it('refuses __proto__, constructor and prototype as keys anywhere in the file, naming their path (a JSON "__proto__" is not silently dropped)', () => {
    const cases: [string, RegExp][] = [
      ['{"source":{"type":"synthetic"},"model":{"family":"vb-linear","options":{"__proto__":{"tol":1}}}}', /model\.options\.__proto__/],
      ['{"source":{"type":"synthetic"},"model":{"family":"vb-linear","options":{"prior":{"__proto__":{"a0":1}}}}}', /model\.options\.prior\.__proto__/],
      ['{"source":{"type":"synthetic"},"model":{"family":"vb-linear","options":{"constructor":1}}}', /model\.options\.constructor/],
      ['{"source":{"type":"synthetic"},"model":{"family":"vb-linear"},"snapshots":{"dir":"s","prototype":1}}', /snapshots\.prototype/],
    ];
    for (const [text, path] of cases) {
      expect(() => parsePipelineConfig(JSON.parse(text), 'test'), text).toThrow(ConfigError);
      expect(() => parsePipelineConfig(JSON.parse(text), 'test'), text).toThrow(path);
    }
  });
});
