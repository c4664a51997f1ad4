import { Consumer, type ConsumerOptions, type GroupAssignment, kGetApi, kGetConnection, type offsetCommitV8 } from '@platformatic/kafka';
import type { ConsumerPort, PortBatch, PortEachBatchPayload, PortMessage } from './kafka-port.js';
import { isRetriableKafkaFailure } from './is-retriable-kafka-failure.js';
import { platformaticFailure } from './platformatic-failure.js';
import { PlatformaticMessage } from './platformatic-message.js';

type Run = Parameters<ConsumerPort['run']>[0];
type Client = Consumer<Buffer, Buffer, Buffer, Buffer>;
type FetchRequestTopic = Parameters<Client['fetch']>[0]['topics'][number];
type FetchResponse = Awaited<ReturnType<Client['fetch']>>;
type JoinListener = (event: { payload: { memberAssignment: { [topic: string]: number[] } } }) => void;
type OffsetCommitRequestTopic = offsetCommitV8.OffsetCommitRequestTopic;
type OffsetCommitResponse = offsetCommitV8.OffsetCommitResponse;
type OffsetCommitArguments = [groupId: string, generationId: number, memberId: string | null, groupInstanceId: string | null, topics: OffsetCommitRequestTopic[]];
type CrashListener = (event: { payload: { error: Error; restart: boolean } }) => void;

/** A control batch (transaction marker): counts for offsets, carries no records. */
const IS_CONTROL = 1 << 5;
/** Kafka error code OFFSET_OUT_OF_RANGE. */
const OFFSET_OUT_OF_RANGE = 1;
/** How long a consumer with nothing to fetch (all paused, no assignment) waits before looking again, ms. */
const IDLE_MS = 50;
/** The wait before the fetch loop starts again after a crash, ms (kafkajs's initial retry time), doubled after each crash in a row up to {@link RESTART_MAX_MS}. */
const RESTART_MS = 300;
/** The longest wait between restarts of the fetch loop (a broker down for minutes is asked every 5 s, not every 300 ms). */
const RESTART_MAX_MS = 5_000;
/** The most a partition's fetch size grows to so that a whole record batch fits (the broker's largest message is 1 MiB by default). */
const MAX_PARTITION_FETCH_BYTES = 64 * 1_048_576;

/**
 * {@link ConsumerPort} on a `@platformatic/kafka` consumer, with kafkajs's `eachBatch` semantics:
 * the client's group membership (join, sync, heartbeats, rejoin on rebalance) and its Fetch
 * request, and this class's own fetch loop over the assigned partitions — positions from the
 * committed offsets (else the earliest or latest), per-partition pause / resume, seek, one batch
 * of one partition at a time, the next fetch starting after the last resolved offset (the next
 * round is fetched while a round's batches are handled, from where they end, and dropped for a
 * partition that did not get there: paused, sought, not fully resolved). A batch is
 * stale once its partition is sought or the client rejoined the group. A failing batch (or fetch)
 * is reported as `consumer.crash`, restarting from the committed offsets when the error (or its
 * cause) is retriable, as kafkajs does; else the loop ends.
 * Rebalances as kafkajs has them: the client rejoins on its own heartbeat timer, kafkajs between
 * batches, so a join makes the batch in flight stale (a failure of it is superseded, not a crash)
 * and its new assignment is announced (`consumer.group_join`) and fetched only once that batch has
 * returned. Until then commits carry the generation and member of the announced assignment, so
 * the broker refuses them once the group moved on: a commit is never retried under a newer
 * generation, for a partition this member may no longer own.
 */
export class PlatformaticConsumer implements ConsumerPort {
  private readonly client: Client;
  private readonly maxBytesPerPartition: number;
  private readonly joinListeners = new Set<JoinListener>();
  private readonly crashListeners = new Set<CrashListener>();
  private topics: string[] = [];
  private fromBeginning = false;
  private assignment: GroupAssignment[] = [];
  /** The group generation and member id of `assignment`, as the broker numbers them. */
  private member = { generationId: -1, memberId: '' };
  /** A join the fetch loop has not announced yet. */
  private pending: { assignment: GroupAssignment[]; generationId: number; memberId: string } | undefined;
  /** Joins of the client so far: a batch fetched before the latest is stale. */
  private joins = 0;
  private needsPositions = true;
  private readonly positions = new Map<string, bigint>();
  private readonly sought = new Map<string, bigint>();
  private readonly paused = new Set<string>();
  /** Per partition, a fetch size grown past `maxBytesPerPartition` to fit a record batch larger than it. */
  private readonly fetchBytes = new Map<string, number>();
  /** Fetch rounds so far: each round's request starts at the next partition (every partition is first in turn). */
  private rounds = 0;
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(options: ConsumerOptions<Buffer, Buffer, Buffer, Buffer>, maxBytesPerPartition: number) {
    this.client = new Consumer(options);
    this.maxBytesPerPartition = maxBytesPerPartition;
    this.client.on('consumer:group:join', ({ assignments, generationId, memberId }) => {
      this.pending = { assignment: assignments ?? [], generationId: generationId ?? -1, memberId };
      this.joins++;
    });
  }

  async connect(): Promise<void> {
    await this.client.metadata({ topics: [] }).catch((error: unknown) => { throw platformaticFailure(error); });
  }

  async disconnect(): Promise<void> {
    await this.stop();
    await this.client.close();
  }

  async subscribe(subscription: { topics: string[]; fromBeginning?: boolean }): Promise<void> {
    this.topics = [...new Set([...this.topics, ...subscription.topics])];
    this.fromBeginning = subscription.fromBeginning ?? false;
    for (const topic of subscription.topics) this.client.topics.track(topic);
  }

  async run(config: Run): Promise<void> {
    this.running = true;
    await this.client.joinGroup({});
    this.loop = this.fetchLoop(config);
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.loop;
    if (this.client.isActive()) await new Promise<void>((resolve) => { this.client.leaveGroup(false, () => resolve()); }); // a failed leave ends by the session timeout
  }

  seek(target: { topic: string; partition: number; offset: string }): void {
    this.sought.set(keyOf(target.topic, target.partition), BigInt(target.offset));
  }

  pause(targets: { topic: string; partitions?: number[] }[]): void {
    for (const key of this.keysOf(targets)) this.paused.add(key);
  }

  resume(targets: { topic: string; partitions?: number[] }[]): void {
    for (const key of this.keysOf(targets)) this.paused.delete(key);
  }

  /** Commits with the announced assignment's generation: refused by the broker once the group moved on, and not retried then (the client's `commit` rejoins and retries under the new generation). */
  async commitOffsets(offsets: { topic: string; partition: number; offset: string }[]): Promise<void> {
    const { generationId, memberId } = this.member;
    const topics = new Map<string, OffsetCommitRequestTopic>();
    for (const { topic, partition, offset } of offsets) {
      const entry = topics.get(topic) ?? { name: topic, partitions: [] };
      entry.partitions.push({ partitionIndex: partition, committedOffset: BigInt(offset), committedLeaderEpoch: -1, committedMetadata: null });
      topics.set(topic, entry);
    }
    const coordinator = await this.client.findGroupCoordinator();
    const metadata = await this.client.metadata({ topics: [] });
    const broker = metadata.brokers.get(coordinator);
    if (broker === undefined) throw new Error(`the group coordinator ${coordinator} is not among the brokers`);
    const response = await new Promise<OffsetCommitResponse>((resolve, reject) => {
      this.client[kGetConnection](broker, (error, connection) => {
        if (connection === undefined) return reject(platformaticFailure(error));
        this.client[kGetApi]<OffsetCommitArguments, OffsetCommitResponse>('OffsetCommit', (apiError, api) => {
          if (api === undefined) return reject(platformaticFailure(apiError));
          api(connection, this.client.groupId, generationId, memberId, null, [...topics.values()], (commitError, result) => {
            if (commitError !== null && commitError !== undefined) reject(platformaticFailure(commitError));
            else resolve(result as OffsetCommitResponse);
          });
        });
      });
    });
    for (const topic of response.topics) {
      for (const { partitionIndex, errorCode } of topic.partitions) {
        if (errorCode !== 0) throw new Error(`committing ${topic.name} partition ${partitionIndex} failed with Kafka error ${errorCode}`);
      }
    }
  }

  on(event: 'consumer.group_join', listener: JoinListener): () => void;
  on(event: 'consumer.crash', listener: CrashListener): () => void;
  on(event: 'consumer.group_join' | 'consumer.crash', listener: JoinListener | CrashListener): () => void {
    const listeners = (event === 'consumer.group_join' ? this.joinListeners : this.crashListeners) as Set<JoinListener | CrashListener>;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  private keysOf(targets: { topic: string; partitions?: number[] }[]): string[] {
    return targets.flatMap(({ topic, partitions }) => (partitions ?? this.assignment.find((a) => a.topic === topic)?.partitions ?? []).map((p) => keyOf(topic, p)));
  }

  private async fetchLoop(config: Run): Promise<void> {
    let next: Promise<Fetched> | undefined;
    let crashes = 0;
    while (this.running) {
      try {
        if (this.pending !== undefined) {
          next = undefined;
          this.announce(this.pending);
        }
        if (this.needsPositions) {
          next = undefined;
          await this.loadPositions();
        }
        for (const [key, offset] of this.sought) this.positions.set(key, offset);
        this.sought.clear();
        const fetched = await (next ?? this.fetch(new Map()));
        next = undefined;
        crashes = 0;
        if (fetched.responses.length === 0) {
          await sleep(IDLE_MS);
          continue;
        }
        // Fetch ahead while this round's batches are handled, from where they end: used for the
        // partitions a round leaves fully resolved, dropped (and fetched again) for the others.
        next = this.fetch(this.aheadOf(fetched));
        next.catch(() => undefined);
        for (const response of fetched.responses) await this.deliver(config, response, fetched);
      } catch (error) {
        next = undefined;
        if (!this.running) return;
        const failure = error instanceof Error ? error : new Error(String(error));
        const restart = isRetriableKafkaFailure(failure);
        for (const listener of this.crashListeners) listener({ payload: { error: failure, restart } });
        if (!restart) {
          this.running = false;
          return;
        }
        this.needsPositions = true;
        await sleep(Math.min(RESTART_MAX_MS, RESTART_MS * 2 ** crashes++));
      }
    }
  }

  /** Makes a join's assignment current, between batches (as kafkajs rejoins), and tells the `consumer.group_join` listeners. */
  private announce(join: { assignment: GroupAssignment[]; generationId: number; memberId: string }): void {
    this.pending = undefined;
    this.assignment = join.assignment;
    this.member = { generationId: join.generationId, memberId: join.memberId };
    this.needsPositions = true;
    const memberAssignment: { [topic: string]: number[] } = {};
    for (const { topic, partitions } of this.assignment) memberAssignment[topic] = [...partitions];
    for (const listener of this.joinListeners) listener({ payload: { memberAssignment } });
  }

  /**
   * One Fetch per leader for the assigned, unpaused partitions, from their positions (or `ahead`).
   * The broker returns a record batch larger than a partition's limit only for the first partition
   * of a request that has data, so the partitions take turns at being first (rotated each round), and
   * a partition that came back empty while behind its end gets a larger limit (doubled, up to
   * 64 MiB) until its batches fit: with a producer's 1 MiB batches every partition still learns each round.
   */
  private async fetch(ahead: Map<string, bigint>): Promise<Fetched> {
    const generation = this.joins;
    const metadata = await this.client.metadata({ topics: this.topics });
    const requests = new Map<number, FetchRequestTopic[]>();
    const topicNames = new Map<string, string>();
    const requested = new Map<string, bigint>();
    const targets = this.assignment.flatMap(({ topic, partitions }) => partitions.map((partition) => ({ topic, partition })));
    const first = targets.length === 0 ? 0 : this.rounds++ % targets.length;
    for (let k = 0; k < targets.length; k++) {
      const { topic, partition } = targets[(first + k) % targets.length];
      const topicMetadata = metadata.topics.get(topic);
      if (topicMetadata === undefined) continue;
      topicNames.set(topicMetadata.id, topic);
      const key = keyOf(topic, partition);
      const fetchOffset = ahead.get(key) ?? this.positions.get(key);
      if (this.paused.has(key) || fetchOffset === undefined) continue;
      requested.set(key, fetchOffset);
      const leader = topicMetadata.partitions[partition].leader;
      const topics = requests.get(leader) ?? [];
      topics.push({ topicId: topicMetadata.id, partitions: [{ partition, fetchOffset, partitionMaxBytes: this.fetchBytes.get(key) ?? this.maxBytesPerPartition, currentLeaderEpoch: -1, lastFetchedEpoch: -1 }] });
      requests.set(leader, topics);
    }
    const responses = await Promise.all([...requests].map(([node, topics]) => this.client.fetch({ node, topics })));
    for (const response of responses) {
      for (const topicResponse of response.responses) {
        const topic = topicNames.get(topicResponse.topicId) as string;
        for (const { partitionIndex, errorCode, records, highWatermark } of topicResponse.partitions) {
          const key = keyOf(topic, partitionIndex);
          const fetchOffset = requested.get(key);
          if (errorCode !== 0 || (records?.length ?? 0) > 0 || fetchOffset === undefined || highWatermark <= fetchOffset) continue;
          this.fetchBytes.set(key, Math.min(MAX_PARTITION_FETCH_BYTES, 2 * (this.fetchBytes.get(key) ?? this.maxBytesPerPartition)));
        }
      }
    }
    return { responses, topicNames, requested, generation };
  }

  /** Where each partition of `fetched` that returned records from its current position continues once they are all resolved. */
  private aheadOf(fetched: Fetched): Map<string, bigint> {
    const ahead = new Map<string, bigint>();
    for (const response of fetched.responses) {
      for (const topicResponse of response.responses) {
        const topic = fetched.topicNames.get(topicResponse.topicId) as string;
        for (const { partitionIndex, records } of topicResponse.partitions) {
          const key = keyOf(topic, partitionIndex);
          if (records === undefined || records.length === 0 || this.positions.get(key) !== fetched.requested.get(key)) continue;
          const last = records[records.length - 1];
          ahead.set(key, last.firstOffset + BigInt(last.lastOffsetDelta) + 1n);
        }
      }
    }
    return ahead;
  }

  /** Hands each partition's records to `eachBatch`, if the partition is still where the fetch started and not paused, sought or reassigned. */
  private async deliver(config: Run, response: FetchResponse, { topicNames, requested, generation }: Fetched): Promise<void> {
    for (const topicResponse of response.responses) {
      const topic = topicNames.get(topicResponse.topicId) as string;
      for (const partitionResponse of topicResponse.partitions) {
        const { partitionIndex: partition } = partitionResponse;
        const key = keyOf(topic, partition);
        const fetchOffset = requested.get(key) as bigint;
        const stale = (): boolean => generation !== this.joins || this.sought.has(key);
        if (!this.running || stale() || this.paused.has(key) || this.positions.get(key) !== fetchOffset) continue;
        if (partitionResponse.errorCode === OFFSET_OUT_OF_RANGE) {
          this.positions.set(key, (await this.listOffsets(this.fromBeginning)).get(topic)?.[partition] ?? 0n);
          continue;
        }
        if (partitionResponse.errorCode !== 0) {
          this.client.clearMetadata();
          continue;
        }
        const recordBatches = partitionResponse.records ?? [];
        if (recordBatches.length === 0) continue;
        const last = recordBatches[recordBatches.length - 1];
        const lastOffset = last.firstOffset + BigInt(last.lastOffsetDelta);
        const from = Number(fetchOffset); // offsets as doubles: exact below 2^53, and no BigInt per record
        // Records below the fetch offset (the head of the first record batch; offsets rise) are left out; the array is made at its size once.
        const skip = ({ firstOffset, records }: (typeof recordBatches)[number]): number => {
          let i = 0;
          while (i < records.length && Number(firstOffset) + records[i].offsetDelta < from) i++;
          return i;
        };
        let count = 0;
        for (const recordBatch of recordBatches) if ((recordBatch.attributes & IS_CONTROL) === 0) count += recordBatch.records.length - skip(recordBatch);
        const messages = new Array<PortMessage>(count);
        let at = 0;
        for (const recordBatch of recordBatches) {
          if ((recordBatch.attributes & IS_CONTROL) !== 0) continue;
          const records = recordBatch.records;
          for (let i = skip(recordBatch); i < records.length; i++) messages[at++] = new PlatformaticMessage(records[i], recordBatch);
        }
        const resolve = (offset: bigint): void => {
          if (!stale()) this.positions.set(key, offset + 1n);
        };
        if (messages.length === 0) {
          resolve(lastOffset);
          continue;
        }
        const lastMessageOffset = messages[messages.length - 1].offset;
        const batch: PortBatch = { topic, partition, highWatermark: partitionResponse.highWatermark.toString(), messages, lastOffset: () => lastOffset.toString() };
        const payload: PortEachBatchPayload = {
          batch,
          resolveOffset: (offset) => resolve(offset === lastMessageOffset ? lastOffset : BigInt(offset)),
          heartbeat: async () => undefined,
          isRunning: () => this.running,
          isStale: stale,
        };
        try {
          await config.eachBatch(payload);
        } catch (error) {
          // The client rejoined the group while the batch was handled: superseded, not a crash.
          if (generation === this.joins) throw error;
        }
        if (config.eachBatchAutoResolve ?? true) resolve(lastOffset);
        if ((config.autoCommit ?? true) && !stale()) await this.commitOffsets([{ topic, partition, offset: String(this.positions.get(key)) }]);
      }
    }
  }

  /** Positions of the assigned partitions: the committed offset, else the earliest or latest. */
  private async loadPositions(): Promise<void> {
    this.needsPositions = false;
    this.positions.clear();
    if (this.assignment.length === 0) return;
    const committed = await this.client.listCommittedOffsets({ topics: this.assignment });
    const ends = await this.listOffsets(this.fromBeginning);
    for (const { topic, partitions } of this.assignment) {
      for (const partition of partitions) {
        const offset = committed.get(topic)?.[partition] ?? -1n;
        this.positions.set(keyOf(topic, partition), offset >= 0n ? offset : ends.get(topic)?.[partition] ?? 0n);
      }
    }
  }

  private listOffsets(earliest: boolean): Promise<Map<string, bigint[]>> {
    return this.client.listOffsets({ topics: this.assignment.map((a) => a.topic), timestamp: earliest ? -2n : -1n });
  }
}

/** One round's Fetch responses and what they asked for. */
interface Fetched {
  readonly responses: FetchResponse[];
  readonly topicNames: Map<string, string>;
  readonly requested: Map<string, bigint>;
  readonly generation: number;
}

function keyOf(topic: string, partition: number): string {
  return `${topic}:${partition}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
