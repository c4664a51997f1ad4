import { randomUUID } from 'node:crypto';
import type { ConsumerPort, DeadLetterReason, KafkaPort, PortMessage, PortOutgoingMessage, ProducerPort } from 'vbstream/kafka';
import { DeadLetterSink, ensureTopic } from 'vbstream/kafka';
import { InputError, ShapeError, VbstreamError } from 'vbstream';
import type { BanditBackend } from './bandit-backend.js';
import { parseDecideRequest, parseRewardRequest } from './bandit-messages.js';

/** A request refused with a dead-letter reason. */
class Refused extends Error {
  constructor(readonly reason: DeadLetterReason, readonly detail: string) {
    super(detail);
  }
}

const parseJson = (message: PortMessage): unknown => {
  if (message.value === null) throw new Refused('empty', 'no value');
  try {
    return JSON.parse(message.value.toString('utf8'));
  } catch (error) {
    throw new Refused('bad-json', (error as Error).message);
  }
};

/** `parse()`, its typed errors turned into the dead-letter reason; anything that is not a typed error propagates. */
const parsed = <T>(parse: () => T, reward: boolean): T => {
  try {
    return parse();
  } catch (error) {
    if (error instanceof Refused || !(error instanceof VbstreamError)) throw error;
    const reason: DeadLetterReason = error instanceof ShapeError ? 'wrong-width'
      : error.location.column !== undefined ? 'non-numeric'
        : reward && error.location.field === 'reward' ? 'bad-label' : 'bad-shape';
    throw new Refused(reason, error.message);
  }
};

/**
 * The bandit backend over Kafka. One consumer group reads `<prefix>.decide` (`{"context": [...]}`,
 * keyed by the caller's correlation id) and `<prefix>.rewards` (`{"decisionId", "reward"}`); each
 * decision `{decisionId, arm, scores, propensity}` goes to `<prefix>.decisions` under the request's
 * key (its decision id when the request has none). A request that cannot be used goes to
 * `<topic>.dlq` through a {@link DeadLetterSink} with its reason (`empty`, `bad-json`, `bad-shape`,
 * `wrong-width`, `non-numeric`, `bad-label`, `unknown-decision`) and consuming goes on. A batch's
 * decisions and dead letters are acknowledged before its offsets count as consumed (at-least-once).
 *
 * Pending decisions live in this one backend's memory: a reward must reach the process that made
 * the decision, so the topics have one partition (created so when missing) and one instance runs;
 * scaling out needs key affinity between a decision and its reward.
 */
export class KafkaBandit {
  /** Dead letters written so far, by reason. */
  readonly deadLetters: DeadLetterSink;

  private constructor(
    private readonly backend: BanditBackend,
    private readonly prefix: string,
    private readonly consumer: ConsumerPort,
    private readonly producer: ProducerPort,
  ) {
    this.deadLetters = new DeadLetterSink(producer);
  }

  /** Creates the topics and their dead-letter topics if missing and starts consuming from the group's committed offsets (the beginning at first). */
  static async start(port: KafkaPort, backend: BanditBackend, options: { readonly topicPrefix: string; readonly groupId?: string; readonly onCrash?: (error: Error) => void }): Promise<KafkaBandit> {
    const prefix = options.topicPrefix;
    const admin = port.admin();
    await admin.connect();
    try {
      for (const topic of [`${prefix}.decide`, `${prefix}.rewards`, `${prefix}.decisions`, `${prefix}.decide.dlq`, `${prefix}.rewards.dlq`]) await ensureTopic(admin, topic);
    } finally {
      await admin.disconnect();
    }
    const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const consumer = port.consumer({ groupId: options.groupId ?? `vbstream-bandit-${randomUUID()}`, maxWaitTimeInMs: 100 });
    const bandit = new KafkaBandit(backend, prefix, consumer, producer);
    await consumer.connect();
    consumer.on('consumer.crash', ({ payload }) => { if (!payload.restart) options.onCrash?.(payload.error); });
    await consumer.subscribe({ topics: [`${prefix}.decide`, `${prefix}.rewards`], fromBeginning: true });
    await consumer.run({ eachBatch: async ({ batch }) => bandit.handle(batch.topic, batch.partition, batch.messages) });
    return bandit;
  }

  /** Stops consuming and disconnects. */
  async stop(): Promise<void> {
    await this.consumer.disconnect();
    await this.producer.disconnect();
  }

  private async handle(topic: string, partition: number, messages: PortMessage[]): Promise<void> {
    const decisions: PortOutgoingMessage[] = [];
    const decide = topic === `${this.prefix}.decide`;
    for (const message of messages) {
      try {
        if (decide) {
          const decision = this.backend.decide(parsed(() => parseDecideRequest(parseJson(message), this.backend.policy.dim), false));
          decisions.push({ key: message.key ?? decision.decisionId, value: JSON.stringify(decision) });
        } else {
          const request = parsed(() => parseRewardRequest(parseJson(message)), true);
          try {
            this.backend.reward(request);
          } catch (error) {
            if (error instanceof InputError && error.location.field === 'decisionId') throw new Refused('unknown-decision', error.message);
            throw error;
          }
        }
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
        this.deadLetters.add({ reason: error.reason, detail: error.detail, topic, partition, offset: message.offset, key: message.key, value: message.value });
      }
    }
    if (decisions.length > 0) await this.producer.send({ topic: `${this.prefix}.decisions`, messages: decisions, acks: -1 });
    await this.deadLetters.flush();
  }
}
