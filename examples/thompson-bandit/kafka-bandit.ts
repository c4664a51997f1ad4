import { randomUUID } from 'node:crypto';
import type { BanditPolicy } from 'vbstream/bandit';
import { BanditDecider, BanditLearner } from 'vbstream/bandit/kafka';
import type { ConsumerPort, DeadLetterReason, KafkaPort, PortMessage, PortOutgoingMessage, ProducerPort } from 'vbstream/kafka';
import { DeadLetterSink, ensureTopic, KafkaSnapshotStore } from 'vbstream/kafka';
import { ShapeError, VbstreamError } from 'vbstream';
import { parseDecideRequest } from './bandit-messages.js';

/** A request refused with a dead-letter reason. */
class Refused extends Error {
  constructor(readonly reason: DeadLetterReason, readonly detail: string) {
    super(detail);
  }
}

/** A decide request's context, or the dead-letter reason it is refused with. */
const contextOf = (message: PortMessage, dim: number): Float64Array => {
  if (message.value === null) throw new Refused('empty', 'no value');
  let body: unknown;
  try {
    body = JSON.parse(message.value.toString('utf8'));
  } catch (error) {
    throw new Refused('bad-json', (error as Error).message);
  }
  try {
    return parseDecideRequest(body, dim).context;
  } catch (error) {
    if (!(error instanceof VbstreamError)) throw error;
    throw new Refused(error instanceof ShapeError ? 'wrong-width' : error.location.column !== undefined ? 'non-numeric' : 'bad-shape', error.message);
  }
};

/**
 * The bandit example over Kafka, on the library's backend (`vbstream/bandit/kafka`): a
 * `BanditLearner` (state on `<prefix>.state`) joins `<prefix>.decisions` with `<prefix>.rewards`
 * (`{"decisionId", "reward"}`, keyed by decision id) and learns each reward once, dead-lettering
 * unknown, duplicate and late rewards to `<prefix>.rewards.dlq`; a `BanditDecider` serves the
 * requests of `<prefix>.decide` (`{"context": [...]}`, keyed by the caller's correlation id) and
 * answers each on `<prefix>.answers` under the request's key with `{decisionId, arm, scores,
 * propensity, propensityMethod}`. A request that cannot be used goes to `<prefix>.decide.dlq` with its
 * reason (`empty`, `bad-json`, `bad-shape`, `wrong-width`, `non-numeric`). More deciders may run
 * elsewhere (`BanditDecider.start` on the same topics); a crash of this process loses no decision.
 */
export class KafkaBandit {
  /** Dead letters of the decide requests, by reason. */
  readonly deadLetters: DeadLetterSink;

  private constructor(
    readonly learner: BanditLearner,
    readonly decider: BanditDecider,
    private readonly store: KafkaSnapshotStore,
    private readonly prefix: string,
    private readonly dim: number,
    private readonly consumer: ConsumerPort,
    private readonly producer: ProducerPort,
  ) {
    this.deadLetters = new DeadLetterSink(producer);
  }

  /** Starts the learner (from its last state, `policy` at first) and a decider, then consumes decide requests from the group's committed offsets (the beginning at first). */
  static async start(port: KafkaPort, policy: () => BanditPolicy, options: { readonly topicPrefix: string; readonly rewardWindowMs?: number; readonly groupId?: string; readonly onCrash?: (error: Error) => void }): Promise<KafkaBandit> {
    const prefix = options.topicPrefix;
    const crash = options.onCrash ?? (() => undefined);
    const admin = port.admin();
    await admin.connect();
    try {
      for (const topic of [`${prefix}.decide`, `${prefix}.answers`, `${prefix}.decide.dlq`]) await ensureTopic(admin, topic);
    } finally {
      await admin.disconnect();
    }
    const store = await KafkaSnapshotStore.open(port, { topic: `${prefix}.state` });
    const topics = { decisionsTopic: `${prefix}.decisions`, rewardsTopic: `${prefix}.rewards` };
    const learner = new BanditLearner(port, store, { ...topics, model: 'bandit', createPolicy: policy, rewardWindowMs: options.rewardWindowMs ?? 3_600_000 });
    await learner.start(crash);
    const decider = await BanditDecider.start(port, { decisionsTopic: topics.decisionsTopic, policyTopic: `${prefix}.state`, model: 'bandit' });
    await decider.loaded();
    const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const consumer = port.consumer({ groupId: options.groupId ?? `vbstream-bandit-${randomUUID()}`, maxWaitTimeInMs: 100 });
    const bandit = new KafkaBandit(learner, decider, store, prefix, learner.currentPolicy.dim, consumer, producer);
    await consumer.connect();
    consumer.on('consumer.crash', ({ payload }) => { if (!payload.restart) crash(payload.error); });
    await consumer.subscribe({ topics: [`${prefix}.decide`], fromBeginning: true });
    await consumer.run({ eachBatch: async ({ batch }) => bandit.handle(batch.topic, batch.partition, batch.messages) });
    return bandit;
  }

  /** Stops consuming, then the decider and the learner (which snapshots its state). */
  async stop(): Promise<void> {
    await this.consumer.disconnect();
    await this.producer.disconnect();
    await this.decider.stop();
    await this.learner.stop();
    await this.store.close();
  }

  /** A batch of decide requests: each decided (and logged by the decider), answered under its key; refusals dead-lettered. Answers and letters are sent before the batch's offsets count as consumed. */
  private async handle(topic: string, partition: number, messages: PortMessage[]): Promise<void> {
    const decided = await Promise.all(messages.map(async (message): Promise<PortOutgoingMessage | undefined> => {
      try {
        const { decisionId, arm, scores, propensity, propensityMethod } = await this.decider.decide(contextOf(message, this.dim));
        return { key: message.key ?? decisionId, value: JSON.stringify({ decisionId, arm, scores, propensity, propensityMethod }) };
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
        this.deadLetters.add({ reason: error.reason, detail: error.detail, topic, partition, offset: message.offset, key: message.key, value: message.value });
        return undefined;
      }
    }));
    const answers = decided.filter((answer) => answer !== undefined);
    if (answers.length > 0) await this.producer.send({ topic: `${this.prefix}.answers`, messages: answers, acks: -1 });
    await this.deadLetters.flush();
  }
}
