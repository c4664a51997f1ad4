import { fileFingerprint } from '../connectors/file/file-fingerprint.js';
import { openCsvSource } from '../connectors/file/open-csv-source.js';
import { openJsonlSource } from '../connectors/file/open-jsonl-source.js';
import type { RecordSource } from '../connectors/file/record-source.js';
import { SyntheticSource } from '../connectors/file/synthetic-source.js';
import type { BadRecordSink } from '../operators/bad-record.js';
import type { PipelineConfig } from './pipeline-config.js';

/**
 * Opens the configured source, resuming at the offset `start` gives for its identity and name
 * (from a restored snapshot) where the source can seek: synthetic streams replay to the offset,
 * files skip the rows already learned; stdin starts where it is. Returns the source and one line
 * describing it.
 */
export async function openPipelineSource(
  config: PipelineConfig & { readonly source: { readonly type: 'synthetic' | 'csv' | 'jsonl' | 'stdin' } },
  start: (source: { readonly identity: string; readonly name: string }) => number,
  badRecords: BadRecordSink,
): Promise<{ source: RecordSource; description: string }> {
  const { source, schema } = config;
  switch (source.type) {
    case 'synthetic': {
      const { type: _, ...options } = source;
      const probe = new SyntheticSource(options);
      const synthetic = new SyntheticSource({ ...options, startOffset: start(probe) });
      const size = source.records === undefined ? 'unbounded' : `${source.records.toLocaleString('en-US')} records`;
      return { source: synthetic, description: `synthetic ${source.kind} stream (d=${source.dim}, ${size}, seed ${source.seed}${source.drift ? `, drift ${source.drift.scale} every ${source.drift.every}` : ''}${source.rate === undefined ? '' : `, ${source.rate.toLocaleString('en-US')} records/s`})` };
    }
    case 'csv': {
      const identity = await fileFingerprint(source.path);
      return { source: await openCsvSource({ path: source.path, schema, identity, startOffset: start({ identity, name: source.path }), badRecords }), description: `CSV file ${source.path}` };
    }
    case 'jsonl': {
      const identity = await fileFingerprint(source.path);
      return { source: await openJsonlSource({ path: source.path, schema, identity, startOffset: start({ identity, name: source.path }), badRecords }), description: `JSON lines file ${source.path}` };
    }
    case 'stdin':
      start({ identity: 'stdin', name: 'stdin' });
      return {
        source: source.format === 'csv' ? await openCsvSource({ schema, badRecords }) : await openJsonlSource({ schema, badRecords }),
        description: `${source.format === 'csv' ? 'CSV' : 'JSON lines'} on stdin`,
      };
  }
}
