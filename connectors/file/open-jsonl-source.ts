import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { ConfigError } from '../../src/core/config-error.js';
import { InputError } from '../../src/core/input-error.js';
import type { BadRecordSink } from '../../operators/bad-record.js';
import { fileFingerprint } from './file-fingerprint.js';
import { LineRecordSource } from './line-record-source.js';
import { LineSource } from './line-source.js';
import { readFirstLine } from './read-first-line.js';
import type { RecordSchema } from './record-schema.js';

/** Options of {@link openJsonlSource}: a file `path`, or stdin (then `schema.features` is required). */
export interface JsonlSourceOptions {
  readonly path?: string;
  readonly schema: RecordSchema;
  readonly startOffset?: number;
  /** The file's content identity, when the caller has computed it (else it is computed here). */
  readonly identity?: string;
  readonly badRecords?: BadRecordSink;
  readonly stdin?: () => Readable;
}

function keysOf(line: string, source: string, schema: RecordSchema): string[] {
  let object: unknown;
  try {
    object = JSON.parse(line);
  } catch (cause) {
    throw new InputError('first line is not valid JSON', { source, row: 1 }, { cause });
  }
  if (typeof object !== 'object' || object === null || Array.isArray(object)) throw new InputError('first line is not a JSON object', { source, row: 1 });
  return Object.keys(object).filter((k) => k !== schema.label && k !== schema.weight);
}

/**
 * JSON Lines (one object per line) from a file or stdin as a {@link RecordSource}. The features
 * are `schema.features`, or for a file the first object's keys but the label and weight. Every
 * field used must be a finite JSON number; a line that is not an object, lacks a field or holds
 * another value goes to `badRecords` naming the source, row, field and value.
 */
export async function openJsonlSource(options: JsonlSourceOptions): Promise<LineRecordSource> {
  const { path, schema } = options;
  const name = path ?? 'stdin';
  const first = path === undefined ? undefined : await readFirstLine(path);
  if (path !== undefined && first === undefined) throw new InputError('file is empty', { source: path });
  const features = schema.features ?? (first === undefined ? undefined : keysOf(first, name, schema));
  if (features === undefined) throw new ConfigError('reading JSON lines from stdin needs schema.features', { field: 'schema.features' });
  if (features.length === 0) throw new InputError('no feature fields besides the label', { source: name, field: 'features' });
  const wanted = features;
  const parser = {
    parse(text: string, _line: number, row: number) {
      let object: unknown;
      try {
        object = JSON.parse(text);
      } catch (cause) {
        throw new InputError('line is not valid JSON', { source: name, row, value: text }, { cause });
      }
      if (typeof object !== 'object' || object === null || Array.isArray(object)) throw new InputError('line is not a JSON object', { source: name, row, value: text });
      const fields = object as Record<string, unknown>;
      const number = (field: string): number => {
        const value = fields[field];
        if (value === undefined) throw new InputError('field is missing', { source: name, row, field });
        if (typeof value !== 'number' || !Number.isFinite(value)) throw new InputError('field is not a finite number', { source: name, row, field, value });
        return value;
      };
      const x = Float64Array.from(wanted, number);
      const y = number(schema.label);
      return schema.weight === undefined ? { x, y } : { x, y, weight: number(schema.weight) };
    },
  };
  const open = path === undefined ? (options.stdin ?? (() => process.stdin)) : () => createReadStream(path);
  const identity = path === undefined ? undefined : options.identity ?? await fileFingerprint(path);
  return new LineRecordSource(new LineSource(open, name), parser, wanted, { startOffset: options.startOffset, badRecords: options.badRecords, identity });
}
