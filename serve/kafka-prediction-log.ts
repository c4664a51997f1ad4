import { BatchingWriter } from '../connectors/kafka/batching-writer.js';
import { ensureTopic } from '../connectors/kafka/ensure-topic.js';
import type { AdminPort, KafkaPort, ProducerPort } from '../connectors/kafka/kafka-port.js';
import type { TopicDurability } from '../connectors/kafka/topic-durability.js';
import { ConfigError } from '../src/core/config-error.js';
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
  /** Idempotent producers writing at once, each with one send in flight (`BatchingWriter`); default {@link KafkaPredictionLog.PRODUCERS}. */
  readonly producers?: number;
}

/**
 * A {@link PredictionLog} on Kafka: creates the predictions (and outcomes) topic when missing, with
 * the same partition count, and writes through a pool of idempotent producers with acks from all
 * in-sync replicas, keyed by prediction id (so Kafka's default partitioner puts a prediction and its
 * outcome on partitions of the same number). Each producer keeps one send in flight; predictions
 * logged while every one is busy go out together in the next send (`BatchingWriter`); a write the
 * brokers refuse rejects with a retriable `io` error.
 *
 * The pool keeps the contract of the outcome learner: each `log` resolves only once its own send is
 * acknowledged (an answer is never returned before its prediction is durable), each prediction is in
 * one send of one producer (whose idempotence keeps a client retry from writing it twice), and the
 * learner needs no order among predictions: it joins an outcome to its prediction by id, times the
 * label window from `predictedAt`, and an outcome whose prediction it has not read yet waits until the
 * predictions partition is read to its end, which holds every prediction already answered.
 */
export class KafkaPredictionLog implements PredictionLog {
  private readonly writer: BatchingWriter;
  /** Writes an outcome to the outcomes topic, keyed by its prediction id; present with an `outcomesTopic`. */
  readonly outcome?: (predictionId: string, y: number) => Promise<void>;

  /** Producers of a log whose options name no number. */
  static readonly PRODUCERS = 2;

  private constructor(private readonly options: KafkaPredictionLogOptions, private readonly producers: readonly ProducerPort[], private readonly admin: AdminPort) {
    this.writer = new BatchingWriter(producers, admin, { probeTopic: options.predictionsTopic, unresponsiveAfterMs: options.unresponsiveAfterMs });
    const topic = options.outcomesTopic;
    if (topic !== undefined) this.outcome = (predictionId, y) => this.writer.write(topic, 'the outcome', [{ key: predictionId, value: JSON.stringify({ predictionId, y }) }]);
  }

  static async start(port: KafkaPort, options: KafkaPredictionLogOptions): Promise<KafkaPredictionLog> {
    const count = options.producers ?? KafkaPredictionLog.PRODUCERS;
    if (!Number.isInteger(count) || count < 1) throw new ConfigError('producers must be a positive integer', { field: 'producers', value: count });
    const admin = port.admin();
    await admin.connect();
    try {
      for (const topic of [options.predictionsTopic, options.outcomesTopic]) if (topic !== undefined) await ensureTopic(admin, topic, { partitions: options.partitions ?? 1, ...options.topics });
    } catch (error) {
      await admin.disconnect();
      throw error;
    }
    const producers: ProducerPort[] = [];
    try {
      for (let k = 0; k < count; k++) {
        const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
        await producer.connect();
        producers.push(producer);
      }
    } catch (error) {
      for (const producer of producers) await producer.disconnect();
      await admin.disconnect();
      throw error;
    }
    return new KafkaPredictionLog(options, producers, admin);
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
    for (const producer of this.producers) await producer.disconnect();
    await this.admin.disconnect();
  }
}
