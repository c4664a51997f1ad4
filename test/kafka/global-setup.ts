import type { TestProject } from 'vitest/node';
import { startLocalKafka } from '../../scripts/local-kafka.js';
import { PATIENCE_MS } from '../helpers/wait-for.js';

declare module 'vitest' {
  export interface ProvidedContext {
    kafkaBootstrap: string;
  }
}

/**
 * Starts the real single-node KRaft broker for the Kafka suite and stops it afterwards. If it
 * cannot start, this throws and every Kafka test fails (nothing is skipped).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const broker = await startLocalKafka({ timeoutMs: PATIENCE_MS });
  project.provide('kafkaBootstrap', broker.bootstrap);
  return () => broker.stop();
}
