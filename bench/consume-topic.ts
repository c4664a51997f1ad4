import { performance } from 'node:perf_hooks';
import type { KafkaPort, PortMessage } from '../connectors/kafka/kafka-port.js';
import { processCpuMs } from './process-cpu-ms.js';

/** What {@link consumeTopic} measured: records/s from the first batch to the last record, and this process's CPU time over the same span (and the watched process's, when one was given). */
export interface ConsumeFigures {
  readonly rate: number;
  readonly cpuMs: number;
  /** CPU ms of the process `watchPid` (e.g. the broker) over the same span. */
  readonly watchedCpuMs?: number;
}

/**
 * Consumes `records` records of `topic` from the beginning in a fresh consumer group with eachBatch
 * (no auto-commit or auto-resolve, one partition at a time), handing each batch's messages of each
 * partition to `each` and resolving the batch's last offset; stops once `records` were seen (or `each` threw: rejects with its error).
 * With `watchPid`, also the CPU time of that process (all threads, /proc) over the same span.
 */
export async function consumeTopic(port: KafkaPort, topic: string, records: number, options: { readonly groupId: string; readonly maxBytesPerPartition: number; readonly each?: (partition: number, messages: readonly PortMessage[]) => void; readonly watchPid?: number }): Promise<ConsumeFigures> {
  const consumer = port.consumer({ groupId: options.groupId, maxWaitTimeInMs: 100, maxBytesPerPartition: options.maxBytesPerPartition });
  let seen = 0;
  let first = 0;
  let last = 0;
  let cpuAtFirst = process.cpuUsage();
  let cpu = 0;
  const watched = (): number => (options.watchPid === undefined ? 0 : processCpuMs(options.watchPid));
  let watchedAtFirst = 0;
  let watchedCpu = 0;
  let resolveDone: () => void = () => undefined;
  let failed: (error: unknown) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => { resolveDone = resolve; failed = reject; });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    autoCommit: false, eachBatchAutoResolve: false, partitionsConsumedConcurrently: 1,
    eachBatch: async ({ batch, resolveOffset }) => {
      if (first === 0) {
        first = performance.now();
        cpuAtFirst = process.cpuUsage();
        watchedAtFirst = watched();
      }
      try {
        options.each?.(batch.partition, batch.messages);
      } catch (error) {
        failed(error);
        return;
      }
      seen += batch.messages.length;
      resolveOffset(batch.messages[batch.messages.length - 1].offset);
      if (seen >= records && last === 0) {
        last = performance.now();
        const used = process.cpuUsage(cpuAtFirst);
        cpu = (used.user + used.system) / 1000;
        watchedCpu = watched() - watchedAtFirst;
        resolveDone();
      }
    },
  });
  try {
    await done;
  } finally {
    await consumer.stop();
    await consumer.disconnect();
  }
  return { rate: (records / (last - first)) * 1000, cpuMs: cpu, ...(options.watchPid === undefined ? {} : { watchedCpuMs: watchedCpu }) };
}
