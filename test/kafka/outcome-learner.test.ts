import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { DEAD_LETTER_HEADERS } from '../../connectors/kafka/dead-letter-sink.js';
import { defaultPartition } from '../../connectors/kafka/default-partition.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { readGlobalPosterior } from '../../connectors/kafka/read-global-posterior.js';
import { snapshotKey } from '../../connectors/kafka/snapshot-key.js';
import type { LoggedPrediction } from '../../serve/logged-prediction.js';
import { OutcomeLearner, type OutcomeLearnerOptions } from '../../serve/outcome-learner.js';
import { OutcomeMetrics } from '../../serve/outcome-metrics.js';
import { ConfigError } from '../../src/core/config-error.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { getFamily } from '../../src/registry.js';
import { readRecords, suiteBroker, unique, waitFor } from './helpers.js';

const D = 2;
const FAMILY = 'vb-logit-online';

/** A prediction as a scoring service logs it (the contract's format), served with p = `mean`. */
const prediction = (instance: string, n: number, mean: number, predictedAt = Date.now()): LoggedPrediction => ({
  predictionId: `${instance}-${n}`, x: [1, (n % 5) / 5 - 0.3], version: '0:0', mean, variance: mean * (1 - mean), interval: [mean / 2, (1 + mean) / 2], level: 0.9,
  predictedAt, instance, family: FAMILY, dim: D,
});

/** A fresh model fed `records` (x, y) one at a time, in order: what a partition's model must be. */
function fed(records: readonly { readonly x: readonly number[]; readonly y: number }[]): OnlineModel {
  const model = getFamily(FAMILY).create(D);
  for (const { x, y } of records) model.update({ x: Float64Array.from(x), y: Float64Array.of(y), n: 1, d: D });
  return model;
}

/** The value of a sample line of the exposition text. */
function sample(text: string, line: string): number {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  if (found === undefined) throw new Error(`no ${line} in the metrics`);
  return Number(found.slice(line.length + 1));
}

describe('OutcomeLearner over Kafka: delayed labels joined to logged predictions, learned exactly once (real broker)', () => {
  const { port } = suiteBroker();

  async function begin(prefix: string, options: Partial<OutcomeLearnerOptions> = {}) {
    const registry = new Registry();
    const store = await KafkaSnapshotStore.open(port, { topic: `${prefix}.state` });
    const learner = new OutcomeLearner(port, store, {
      predictionsTopic: `${prefix}.predictions`, outcomesTopic: `${prefix}.outcomes`, model: 'm', family: FAMILY, dim: D,
      // The labels must be read within the window, before the learner marks their predictions expired: 10 s, for a loaded machine.
      labelWindowMs: 10_000, expiryCheckMs: 200, snapshotEvery: 4, metrics: new OutcomeMetrics(registry, 'classification'), ...options,
    });
    let failure: Error | undefined;
    await learner.start((error) => { failure = error; });
    const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const log = (predictions: readonly LoggedPrediction[]) => producer.send({ topic: `${prefix}.predictions`, acks: -1, messages: predictions.map((p) => ({ key: p.predictionId, value: JSON.stringify(p) })) });
    const label = (labels: readonly (readonly [string, unknown])[]) => producer.send({ topic: `${prefix}.outcomes`, acks: -1, messages: labels.map(([predictionId, y]) => ({ key: predictionId, value: JSON.stringify({ predictionId, y }) })) });
    return {
      learner, registry, store, log, label, failure: () => failure,
      end: async () => {
        await producer.disconnect();
        await learner.stop();
        await store.close();
      },
    };
  }

  /** Six predictions, labels for three (one twice), one for no prediction and one outside the coding. */
  async function sixPredictions(expiredLabel: number | undefined) {
    const prefix = unique('outcomes');
    const run = await begin(prefix, { expiredLabel });
    const means = [0.9, 0.3, 0.55, 0.2, 0.7, 0.05];
    const predictions = means.map((mean, i) => prediction('a1b2c3d4e5f6', i + 1, mean));
    await run.log(predictions);
    const [p0, p1, p2, p3] = predictions.map((p) => p.predictionId);
    await run.label([[p0, 1], [p1, 0], [p2, -1], [p0, 1], ['ghost-1', 1], [p3, 0.5]]);
    await waitFor(() => run.learner.learned === 3 && run.learner.pendingCount === 3, () => `3 labels learned (have ${run.learner.learned}, ${run.learner.pendingCount} pending)`);
    return { prefix, run, predictions };
  }

  it('learns each label once into the model, scores the served predictions (log-loss, Brier, calibration, delay) and, after the window, learns the rest with the default label; duplicate, unknown, bad and late labels go to the DLQ with their reason', async () => {
    const { prefix, run, predictions } = await sixPredictions(0);
    const text = await run.registry.metrics();
    // By hand: served p 0.9 (y = 1), 0.3 (y = 0), 0.55 (y = -1, negative).
    expect(sample(text, 'vbstream_serve_outcomes_total{outcome="labelled"}')).toBe(3);
    expect(sample(text, 'vbstream_serve_log_loss_total')).toBeCloseTo(-Math.log(0.9) - Math.log(0.7) - Math.log(0.45), 12);
    expect(sample(text, 'vbstream_serve_brier_total')).toBeCloseTo(0.01 + 0.09 + 0.3025, 12);
    // Bins (0.8, 0.9], (0.2, 0.3], (0.5, 0.6], one prediction each: ECE = (|1 − 0.9| + |0 − 0.3| + |0 − 0.55|) / 3.
    expect(sample(text, 'vbstream_serve_expected_calibration_error')).toBeCloseTo((0.1 + 0.3 + 0.55) / 3, 12);
    expect(sample(text, 'vbstream_serve_predicted_probability_bucket{le="0.9",outcome="1"}')).toBe(1);
    expect(sample(text, 'vbstream_serve_predicted_probability_count{outcome="0"}')).toBe(2);
    expect(sample(text, 'vbstream_serve_label_delay_seconds_count')).toBe(3);
    expect(sample(text, 'vbstream_serve_pending_predictions')).toBe(3);

    await waitFor(() => run.learner.learned === 6 && run.learner.pendingCount === 0, () => `the 3 expired predictions learned with label 0 (learned ${run.learner.learned})`);
    await run.label([[predictions[3].predictionId, 1]]);
    const letters = await readRecords(port, `${prefix}.outcomes.dlq`, 4);
    expect(letters.map((l) => [l.key, l.headers[DEAD_LETTER_HEADERS.reason]])).toEqual([
      [predictions[0].predictionId, 'duplicate-outcome'], ['ghost-1', 'unknown-prediction'], [predictions[3].predictionId, 'bad-label'], [predictions[3].predictionId, 'late-outcome'],
    ]);
    expect(letters[1].headers[DEAD_LETTER_HEADERS.detail]).toContain('no prediction ghost-1 was logged');
    const markers = (await readRecords(port, `${prefix}.outcomes`, 10)).slice(6, 9).map((r) => JSON.parse(r.value!.toString()) as unknown);
    expect(markers).toEqual(predictions.slice(3).map((p) => ({ predictionId: p.predictionId, expired: true, y: 0 })));
    const text2 = await run.registry.metrics();
    expect(sample(text2, 'vbstream_serve_outcomes_total{outcome="expired-learned"}')).toBe(3);
    expect(sample(text2, 'vbstream_serve_dead_letters_total{reason="late-outcome"}')).toBe(1);

    // The model: exactly (x, y) of each labelled prediction, then the expired ones with 0, in log order.
    const expected = fed([...predictions.slice(0, 3).map((p, i) => ({ x: p.x, y: [1, 0, -1][i] })), ...predictions.slice(3).map((p) => ({ x: p.x, y: 0 }))]);
    expect(run.learner.models[0].snapshot()).toEqual(expected.snapshot());
    // Published under m/global with PosteriorCombiner's meta, as the scoring services read it.
    await waitFor(async () => (await readGlobalPosterior(run.store, 'm'))?.records === 6, 'the posterior of 6 records published');
    const published = (await readGlobalPosterior(run.store, 'm'))!;
    expect(published.model.snapshot()).toEqual(expected.snapshot());
    expect(published.version).toBe(`0:${published.offsets['0']}`);
    expect(decodeSnapshot((await run.store.latest(snapshotKey('m', 'global')))!).meta).toMatchObject({ model: 'm', topic: `${prefix}.outcomes`, partitions: [0], skipped: [], records: 6 });
    expect(run.failure()).toBeUndefined();
    await run.end();
  });

  it('with expired predictions dropped, an unlabelled prediction is never learned and its late label is dead-lettered', async () => {
    const { prefix, run, predictions } = await sixPredictions(undefined);
    await waitFor(() => run.learner.pendingCount === 0, () => `the 3 expired predictions dropped (${run.learner.pendingCount} pending)`);
    expect(run.learner.learned).toBe(3);
    await run.label([[predictions[4].predictionId, 1]]);
    const letters = await readRecords(port, `${prefix}.outcomes.dlq`, 4);
    expect(letters.map((l) => l.headers[DEAD_LETTER_HEADERS.reason])).toEqual(['duplicate-outcome', 'unknown-prediction', 'bad-label', 'late-outcome']);
    expect(sample(await run.registry.metrics(), 'vbstream_serve_outcomes_total{outcome="expired-dropped"}')).toBe(3);
    const expected = fed(predictions.slice(0, 3).map((p, i) => ({ x: p.x, y: [1, 0, -1][i] })));
    expect(run.learner.models[0].snapshot()).toEqual(expected.snapshot());
    await run.end();
  });

  it('resumes exactly after a restart on two partitions: the published posterior equals the partitions\' joined records folded in log order and merged', async () => {
    const prefix = unique('outcomes-restart');
    const P = 2;
    const predictions = Array.from({ length: 40 }, (_, i) => prediction('0123456789ab', i + 1, 0.5));
    const labels = predictions.map((p, i) => [p.predictionId, (i * 7) % 3 === 0 ? 1 : 0] as const);
    const first = await begin(prefix, { partitions: P, labelWindowMs: 3_600_000 });
    await first.log(predictions);
    await first.label(labels.slice(0, 25));
    await waitFor(() => first.learner.learned === 25, () => `25 labels learned (have ${first.learner.learned})`);
    expect(first.failure()).toBeUndefined();
    await first.end();

    const second = await begin(prefix, { partitions: P, labelWindowMs: 3_600_000 });
    await second.label([...labels.slice(25), labels[3]]);
    await waitFor(() => second.learner.learned === 40, () => `the 40 labels learned in all (have ${second.learner.learned})`);
    const byId = new Map(predictions.map((p) => [p.predictionId, p]));
    const partitionModels = Array.from({ length: P }, (_, p) => fed(labels.filter(([id]) => defaultPartition(id, P) === p).map(([id, y]) => ({ x: byId.get(id)!.x, y }))));
    const expected = getFamily(FAMILY).create(D);
    for (const model of partitionModels) expected.merge!(model);
    // Every outcome record read: each partition's labels, and the duplicate on its partition.
    const version = partitionModels.map((m, p) => `${p}:${m.recordsSeen + (defaultPartition(labels[3][0], P) === p ? 1 : 0)}`).join(',');
    const published = await waitFor(async () => { const g = await readGlobalPosterior(second.store, 'm'); return g?.version === version ? g : undefined; }, `the posterior of version ${version} published`);
    expect(published.model.snapshot()).toEqual(expected.snapshot());
    expect(published.partitions).toEqual([0, 1]);
    expect(published.records).toBe(40);
    const letters = await readRecords(port, `${prefix}.outcomes.dlq`, 1);
    expect(letters.map((l) => l.headers[DEAD_LETTER_HEADERS.reason])).toEqual(['duplicate-outcome']);
    expect(second.failure()).toBeUndefined();
    await second.end();
  });

  it('refuses a family that cannot merge on more than one partition, and an expired label outside the family\'s coding', async () => {
    const prefix = unique('outcomes-adf');
    const store = await KafkaSnapshotStore.open(port, { topic: `${prefix}.state` });
    const split = new OutcomeLearner(port, store, { predictionsTopic: `${prefix}.predictions`, outcomesTopic: `${prefix}.outcomes`, model: 'm', family: 'adf-logit', dim: D, labelWindowMs: 60_000, partitions: 2 });
    await expect(split.start(() => undefined)).rejects.toThrow(ConfigError);
    await split.stop();
    expect(() => new OutcomeLearner(port, store, { predictionsTopic: 'p', outcomesTopic: 'o', model: 'm', family: FAMILY, dim: D, labelWindowMs: 60_000, expiredLabel: 0.5 })).toThrow(/expiredLabel: binary label must be 0\/1 or -1\/1/);
    await store.close();
  });
});
