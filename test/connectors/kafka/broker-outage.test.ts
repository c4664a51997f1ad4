import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BrokerOutage, type BrokerReachability } from '../../../connectors/kafka/broker-outage.js';
import { isRetriableKafkaFailure } from '../../../connectors/kafka/is-retriable-kafka-failure.js';
import { SnapshotError } from '../../../src/core/snapshot-error.js';
import { VbstreamError } from '../../../src/core/vbstream-error.js';

const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9092'), { code: 'ECONNREFUSED' });

describe('isRetriableKafkaFailure', () => {
  it('network errors, retriable kafkajs causes and platformatic errors other than user/auth/unsupported are retriable; the rest are not', () => {
    expect(isRetriableKafkaFailure(refused())).toBe(true);
    expect(isRetriableKafkaFailure(new Error('wrapped', { cause: Object.assign(new Error('leader not available'), { retriable: true }) }))).toBe(true);
    expect(isRetriableKafkaFailure(Object.assign(new AggregateError([refused()], 'metadata failed 9 times'), { code: 'PLT_KFK_MULTIPLE' }))).toBe(true);
    expect(isRetriableKafkaFailure(Object.assign(new Error('bad credentials'), { code: 'PLT_KFK_AUTHENTICATION' }))).toBe(false);
    expect(isRetriableKafkaFailure(new VbstreamError('io', 'timed out', {}, true))).toBe(true);
    expect(isRetriableKafkaFailure(new Error('writing failed', { cause: new SnapshotError('corrupt') }))).toBe(false);
    expect(isRetriableKafkaFailure(new Error('record too large'))).toBe(false);
    expect(isRetriableKafkaFailure('a string')).toBe(false);
    const response = (id: string, canRetry: boolean, needsRejoin = false): Error => Object.assign(new AggregateError([Object.assign(new Error(id), { code: 'PLT_KFK_PROTOCOL', apiId: id, canRetry, needsRejoin })], 'Received response with error'), { code: 'PLT_KFK_RESPONSE' });
    expect(isRetriableKafkaFailure(Object.assign(new AggregateError([response('MESSAGE_TOO_LARGE', false)], 'Producing messages failed'), { code: 'PLT_KFK_MULTIPLE' }))).toBe(false);
    expect(isRetriableKafkaFailure(response('NOT_LEADER_OR_FOLLOWER', true))).toBe(true);
    expect(isRetriableKafkaFailure(response('REBALANCE_IN_PROGRESS', false, true))).toBe(true);
  });
});

describe('BrokerOutage', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it('one change when an outage starts and one when it ends, however many failures in between', () => {
    const changes: BrokerReachability[] = [];
    const outage = new BrokerOutage({ maxOutageMs: 60_000, changed: (change) => changes.push(change), expired: () => { throw new Error('not expected'); } });
    outage.succeeded();
    outage.failed('reading end offsets', refused());
    outage.failed('fetching records', refused());
    expect(outage.down).toBe(true);
    vi.advanceTimersByTime(12_500);
    outage.succeeded();
    outage.succeeded();
    vi.advanceTimersByTime(3_000); // the default settle period
    expect(changes).toEqual([
      { type: 'brokers-unreachable', what: 'reading end offsets', reason: 'connect ECONNREFUSED 127.0.0.1:9092', limitMs: 60_000 },
      { type: 'brokers-reachable', outageMs: 12_500 },
    ]);
    vi.advanceTimersByTime(120_000); // the limit no longer runs once the outage is over
    outage.close();
  });

  it('the end is reported once operations have succeeded for settleMs with no failure: a restarting broker\'s failures meanwhile (an election, a loading coordinator) belong to the same outage, which stays down', () => {
    const changes: BrokerReachability[] = [];
    const outage = new BrokerOutage({ maxOutageMs: 60_000, settleMs: 3_000, changed: (change) => changes.push(change), expired: () => { throw new Error('not expected'); } });
    outage.failed('writing snapshot m/0', refused());
    vi.advanceTimersByTime(10_000);
    outage.succeeded();
    expect(outage.down).toBe(true);
    vi.advanceTimersByTime(1_000);
    outage.failed('writing snapshot m/0', new Error('This server is not the leader for that topic-partition'));
    expect(outage.down).toBe(true);
    vi.advanceTimersByTime(500);
    outage.succeeded();
    vi.advanceTimersByTime(2_999);
    expect(changes.map((change) => change.type)).toEqual(['brokers-unreachable']);
    expect(outage.down).toBe(true);
    vi.advanceTimersByTime(1);
    expect(changes).toEqual([
      { type: 'brokers-unreachable', what: 'writing snapshot m/0', reason: 'connect ECONNREFUSED 127.0.0.1:9092', limitMs: 60_000 },
      { type: 'brokers-reachable', outageMs: 11_500 },
    ]);
    expect(outage.down).toBe(false);
    outage.close();
  });

  it('the limit does not run out while operations succeed in the settle period; a failure in it past the limit ends the outage as expired', () => {
    const expired: VbstreamError[] = [];
    const outage = new BrokerOutage({ maxOutageMs: 10_000, settleMs: 3_000, expired: (error) => expired.push(error) });
    outage.failed('fetching records', refused());
    vi.advanceTimersByTime(9_000);
    outage.succeeded();
    vi.advanceTimersByTime(2_000);
    expect(expired).toHaveLength(0);
    outage.failed('writing snapshot m/0', refused());
    vi.advanceTimersByTime(0);
    expect(expired).toHaveLength(1);
    expect(expired[0].message).toContain('last error: writing snapshot m/0: connect ECONNREFUSED');
    outage.close();
  });

  it('retry tries again with backoff until the operation succeeds; a non-retriable failure rejects at once', async () => {
    const outage = new BrokerOutage({ maxOutageMs: 60_000, expired: () => undefined });
    let attempts = 0;
    const done = outage.retry('writing', async () => {
      attempts++;
      if (attempts < 4) throw refused();
      return 'saved';
    });
    await vi.advanceTimersByTimeAsync(250 + 500 + 1_000);
    await expect(done).resolves.toBe('saved');
    expect(attempts).toBe(4);
    expect(outage.down).toBe(true);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(outage.down).toBe(false);
    await expect(outage.retry('writing', async () => { throw new Error('record too large'); })).rejects.toThrow('record too large');
    outage.close();
  });

  it('a retry\'s attempt begun during an outage that fails after another operation\'s success has settled it is that outage\'s tail, not a new outage; an attempt begun after the end that fails is a new one', async () => {
    const changes: BrokerReachability['type'][] = [];
    const outage = new BrokerOutage({ maxOutageMs: 60_000, changed: (change) => changes.push(change.type), expired: () => undefined });
    let attempts = 0;
    let failAttempt: ((error: Error) => void) | undefined;
    const done = outage.retry('writing snapshot', () => {
      attempts++;
      if (attempts === 1) return Promise.reject(refused());
      if (attempts === 2) return new Promise<string>((_, reject) => { failAttempt = reject; });
      return Promise.resolve('saved');
    });
    await vi.advanceTimersByTimeAsync(250);
    expect(attempts).toBe(2);
    outage.succeeded();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(changes).toEqual(['brokers-unreachable', 'brokers-reachable']);
    failAttempt!(refused());
    await vi.advanceTimersByTimeAsync(500);
    await expect(done).resolves.toBe('saved');
    expect(changes).toEqual(['brokers-unreachable', 'brokers-reachable']);
    const again = outage.retry('writing snapshot', () => Promise.reject(refused()));
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual(['brokers-unreachable', 'brokers-reachable', 'brokers-unreachable']);
    outage.close();
    await expect(again).rejects.toThrow('ECONNREFUSED');
  });

  it('an outage past maxOutageMs calls expired once with one clear non-retriable error, and ends every retry with it', async () => {
    const expired: VbstreamError[] = [];
    const outage = new BrokerOutage({ maxOutageMs: 10_000, setting: 'source.maxOutageMs', expired: (error) => expired.push(error) });
    const retrying = outage.retry('writing snapshot m/0', async () => { throw refused(); });
    retrying.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(expired).toHaveLength(1);
    expect(expired[0].retriable).toBe(false);
    expect(expired[0].message).toBe('Kafka has been unreachable for 10 s, as long as source.maxOutageMs allows; last error: writing snapshot m/0: connect ECONNREFUSED 127.0.0.1:9092');
    await expect(retrying).rejects.toBe(expired[0]);
    await expect(outage.retry('writing', async () => 'never tried')).rejects.toBe(expired[0]);
  });

  it('close ends a retry in its backoff with its last error', async () => {
    const outage = new BrokerOutage({ maxOutageMs: 60_000, expired: () => undefined });
    const retrying = outage.retry('writing', async () => { throw refused(); });
    retrying.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(100);
    outage.close();
    await expect(retrying).rejects.toThrow('ECONNREFUSED');
  });
});
