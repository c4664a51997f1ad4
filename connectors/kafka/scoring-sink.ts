import { ConfigError } from '../../src/core/config-error.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { getFamily } from '../../src/registry.js';
import { DeadLetterSink } from './dead-letter-sink.js';
import { ensureTopic } from './ensure-topic.js';
import type { KafkaPort, PortOutgoingMessage, ProducerPort } from './kafka-port.js';
import { KafkaSource, type SourceBatch } from './kafka-source.js';
import { RecordDecoder } from './record-decoder.js';
import type { RecordSchema } from './record-schema.js';
import type { DecoderFactory, ValueDecoder } from './value-decoder.js';

/** Options of {@link ScoringSink}. */
export interface ScoringSinkOptions {
  readonly inputTopic: string;
  readonly outputTopic: string;
  readonly groupId: string;
  /** The record schema (a label, if present, is checked but not used). */
  readonly schema: Omit<RecordSchema, 'task' | 'requireLabel'>;
  /** How values become records: JSON by default; `AvroRecordDecoder.factory({ registry })` for Avro. */
  readonly decoder?: DecoderFactory;
  /** The posterior to score with and its version, read at every batch (e.g. the latest global posterior). */
  readonly posterior: () => { readonly model: OnlineModel; readonly version: string };
}

/**
 * Scores a topic with the current posterior: for each record, the predictive mean and variance
 * (for a classifier, p(y = 1) and its Bernoulli variance) and the model version go to the output
 * topic as JSON `{"mean","variance","version","partition","offset"}`, with the input's key and
 * partition. Offsets are committed after the predictions are acknowledged (at-least-once); bad
 * records go to `<input>.dlq`.
 */
export class ScoringSink {
  private source: KafkaSource | undefined;
  private producer: ProducerPort | undefined;
  private deadLetters: DeadLetterSink | undefined;
  private decoder: ValueDecoder | undefined;
  private scored = 0;

  constructor(private readonly port: KafkaPort, readonly options: ScoringSinkOptions) {}

  /** Predictions written so far. */
  get recordsScored(): number {
    return this.scored;
  }

  /** Creates the output topic (as many partitions as the input) if needed and starts scoring. */
  async start(onFatal: (error: Error) => void): Promise<void> {
    const { model } = this.options.posterior();
    if (model.dim !== this.options.schema.dim) throw new ConfigError(`the posterior has ${model.dim} features but the schema ${this.options.schema.dim}`, { field: 'dim', value: this.options.schema.dim });
    this.decoder = (this.options.decoder ?? ((schema) => new RecordDecoder(schema)))({ ...this.options.schema, task: getFamily(model.family).task, requireLabel: false });
    const admin = this.port.admin();
    await admin.connect();
    const partitions = (await admin.fetchTopicOffsets(this.options.inputTopic)).length;
    await ensureTopic(admin, this.options.outputTopic, { partitions });
    await ensureTopic(admin, `${this.options.inputTopic}.dlq`, { partitions });
    await admin.disconnect();
    this.producer = this.port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await this.producer.connect();
    this.deadLetters = new DeadLetterSink(this.producer);
    this.source = new KafkaSource(this.port, { topic: this.options.inputTopic, groupId: this.options.groupId });
    await this.source.start((batch) => this.handle(batch), onFatal);
  }

  /** Stops consuming and disconnects. */
  async stop(): Promise<void> {
    await this.source?.stop();
    await this.producer?.disconnect();
  }

  private async handle(batch: SourceBatch): Promise<void> {
    const { model, version } = this.options.posterior();
    const decoder = this.decoder as ValueDecoder;
    if (decoder.prepare !== undefined) await decoder.prepare(batch.messages.map((message) => message.value));
    const x = new Float64Array(this.options.schema.dim);
    const out: PortOutgoingMessage[] = [];
    for (const message of batch.messages) {
      if (decoder.decode(message.value, x, 0) === undefined) {
        const { reason, detail } = decoder.failure;
        this.deadLetters?.add({ reason, detail, topic: batch.topic, partition: batch.partition, offset: message.offset, key: message.key, value: message.value });
        continue;
      }
      const predictive = model.predict(x);
      out.push({
        key: message.key,
        partition: batch.partition,
        value: JSON.stringify({ mean: predictive.mean, variance: predictive.variance, version, partition: batch.partition, offset: Number(message.offset) }),
      });
    }
    await this.deadLetters?.flush();
    if (out.length > 0) await this.producer?.send({ topic: this.options.outputTopic, messages: out, acks: -1 });
    this.scored += out.length;
    const last = batch.messages[batch.messages.length - 1].offset;
    batch.resolve(last);
    await this.source?.commit(batch.partition, Number(last) + 1);
  }
}
