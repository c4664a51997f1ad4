import { createKafkaPort, KafkaSnapshotStore, PartitionedLearner, type KafkaConnection } from 'vbstream/kafka';
import { MetricsServer, PipelineMetrics, Readiness } from 'vbstream/monitoring';

/**
 * A Kafka learner service written only against the published API: one vb-logit-online model per
 * assigned partition of `topic`, snapshots to the compacted `<topic>.snapshots` (offsets committed
 * once a snapshot is durable, so a crash neither loses nor doubles a record), bad records to
 * `<topic>.dlq`, Prometheus metrics and readiness on `metricsHost:metricsPort`.
 */
export async function startLearnerService(options: { connection: KafkaConnection; topic: string; dim: number; metricsHost?: string; metricsPort?: number; onFatal: (error: Error) => void }) {
  const port = createKafkaPort({ ...options.connection, logLevel: 'nothing' });
  const store = await KafkaSnapshotStore.open(port, { topic: `${options.topic}.snapshots` });
  const metrics = new PipelineMetrics({ pipeline: options.topic });
  const readiness = new Readiness(['model-restored', 'source-consuming']);
  const server = new MetricsServer({ metrics, readiness, host: options.metricsHost, port: options.metricsPort ?? 0 });
  const metricsPort = await server.listen();
  const learner = new PartitionedLearner(port, store, {
    topic: options.topic, groupId: `${options.topic}-learners`, model: `vb-logit-online@${options.topic}`,
    family: 'vb-logit-online', schema: { dim: options.dim }, snapshotEvery: 5_000, metrics, readiness,
  });
  await learner.start(options.onFatal);
  return {
    learner, metricsPort,
    async stop(): Promise<void> {
      await learner.stop();
      await store.close();
      await server.close();
    },
  };
}
