import { BatchingWriter } from '../connectors/kafka/batching-writer.js';
import { ensureTopic } from '../connectors/kafka/ensure-topic.js';
import type { AdminPort, KafkaPort, ProducerPort } from '../connectors/kafka/kafka-port.js';
import type { TopicDurability } from '../connectors/kafka/topic-durability.js';
import type { LoggedPrediction } from './logged-prediction.js';
import { loggedPredictionJson } from './logged-prediction-json.js';
import type { PredictionLog } from './prediction-log.js';

/** Options of {@link KafkaPredictionLog}. */
export interface KafkaPredictionLogOptions {
  /** Where predictions are logged, keyed by prediction id. */
  readonly predictionsTopic: string;
  /** Where `outcome` writes outcomes, keyed by prediction id (co-partitioned with the predictions); none: no outcomes are taken. */
  readonly outcomesTopic?: string;
  /** Partitions of the topics when this log creates them (default 1; the outcome learner's). */
  readonly partitions?: number;
  readonly topics?: TopicDurability;
  /** A write unacknowledged for longer than this is a broker problem, ms; default 10,000. */
  readonly unresponsiveAfterMs?: number;
}

/**
 * A {@link PredictionLog} on Kafka: creates the predictions (and outcomes) topic when missing, with
 * the same partition count, and writes through an idempotent producer with acks from all in-sync
 * replicas, keyed by prediction id (so Kafka's default partitioner puts a prediction and its outcome
 * on partitions of the same number). Predictions logged while a send is in flight go out together in
 * the next send (`BatchingWriter`); a write the brokers refuse rejects with a retriable `io` error.
 */
export class KafkaPredictionLog implements PredictionLog {
  private readonly writer: BatchingWriter;
  /** Writes an outcome to the outcomes topic, keyed by its prediction id; present with an `outcomesTopic`. */
  readonly outcome?: (predictionId: string, y: number) => Promise<void>;

  private constructor(private readonly options: KafkaPredictionLogOptions, private readonly producer: ProducerPort, private readonly admin: AdminPort) {
    this.writer = new BatchingWriter(producer, admin, { probeTopic: options.predictionsTopic, unresponsiveAfterMs: options.unresponsiveAfterMs });
    const topic = options.outcomesTopic;
    if (topic !== undefined) this.outcome = (predictionId, y) => this.writer.write(topic, 'the outcome', [{ key: predictionId, value: JSON.stringify({ predictionId, y }) }]);
  }

  static async start(port: KafkaPort, options: KafkaPredictionLogOptions): Promise<KafkaPredictionLog> {
    const admin = port.admin();
    await admin.connect();
    try {
      for (const topic of [options.predictionsTopic, options.outcomesTopic]) if (topic !== undefined) await ensureTopic(admin, topic, { partitions: options.partitions ?? 1, ...options.topics });
    } catch (error) {
      await admin.disconnect();
      throw error;
    }
    const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    return new KafkaPredictionLog(options, producer, admin);
  }

  get brokerProblem(): string | undefined {
    return this.writer.brokerProblem;
  }

  log(predictions: readonly LoggedPrediction[]): Promise<void> {
    return this.writer.append(this.options.predictionsTopic, 'prediction', predictions.map((p) => ({ key: p.predictionId, value: loggedPredictionJson(p) })));
  }

  async stop(): Promise<void> {
    await this.writer.drain();
    this.writer.stop();
    await this.producer.disconnect();
    await this.admin.disconnect();
  }
}
