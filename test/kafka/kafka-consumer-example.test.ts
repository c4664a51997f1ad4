import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../helpers/reference.js';
import { PATIENCE_MS } from '../helpers/wait-for.js';

describe('examples/kafka-consumer (real broker)', () => {
  it('produces a seeded stream, learns every record with a service written against the public API, metrics served, and stops cleanly', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(repoRoot, 'dist/examples/kafka-consumer/main.js'), '--brokers', inject('kafkaBootstrap'), '--records', '4000'], { timeout: PATIENCE_MS });
    expect(stdout).toContain('produced 4,000 records to kafka-consumer-');
    expect(stdout).toMatch(/metrics: http:\/\/127\.0\.0\.1:\d+\/metrics/);
    expect(stdout).toMatch(/learned 4,000 records; snapshots in kafka-consumer-\w+\.snapshots/);
  });
});
