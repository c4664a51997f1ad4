import { describe, expect, it } from 'vitest';
import { KafkaSnapshotStore } from '../../../connectors/kafka/kafka-snapshot-store.js';
import type { KeyedJoinEvent } from '../../../connectors/kafka/keyed-join/keyed-join-event.js';
import { readGlobalPosterior } from '../../../connectors/kafka/read-global-posterior.js';
import { Rng } from '../../../src/rng/rng.js';
import type { OnlineModel } from '../../../src/core/online-model.js';
import { getFamily } from '../../../src/registry.js';
import type { LoggedPrediction } from '../../../serve/logged-prediction.js';
import type { Prediction } from '../../../serve/prediction.js';
import { PATIENCE_MS } from '../../helpers/wait-for.js';
import { readRecords, ServiceProcess, suiteBroker, unique, waitFor } from '../../kafka/helpers.js';

const FAMILY = 'vb-logit-online';
const D = 3;
const PARTITIONS = 2;
const ROUNDS = 8;
const PER_ROUND = 40;
/** Long enough for every label (sent right after its answer) to arrive in time on a loaded machine; the predictions the killed server logged and never answered expire and are dropped. */
const WINDOW_MS = 30_000;
const WEIGHTS = [-0.3, 1, -1];

type ServeEvent = { readonly type: string; readonly url?: string; readonly version?: string };

/** A `vbstream serve` process on the merged posterior the learner publishes, logging its predictions. */
function server(prefix: string): ServiceProcess<ServeEvent> {
  return new ServiceProcess<ServeEvent>(['--snapshot-topic', `${prefix}.state`, '--model', 'live', '--global', '--family', FAMILY, '--dim', String(D),
    '--predictions-topic', `${prefix}.predictions`, '--outcomes-topic', `${prefix}.outcomes`, '--partitions', String(PARTITIONS), '--log-producers', '3', '--port', '0'], 'serve');
}

/** The URL of POST /predict once the server listens with a posterior loaded. */
async function predictUrl(service: ServiceProcess<ServeEvent>): Promise<string> {
  await waitFor(() => service.events.some((e) => e.type === 'posterior'), () => `the server to load a posterior (stderr: ${service.stderr})`);
  const listening = await waitFor(() => service.events.find((e) => e.type === 'listening'), () => `the server to listen (stderr: ${service.stderr})`);
  return `${listening.url!}predict`;
}

async function predict(url: string, x: readonly number[]): Promise<Prediction> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x }) });
  if (response.status !== 200) throw new Error(`POST /predict answered ${response.status}: ${await response.text()}`);
  return await response.json() as Prediction;
}

/**
 * The scoring service's delayed-label loop under crashes, every piece a spawned CLI process: two
 * `vbstream serve` instances (predictions topic on) over the merged posterior of one `vbstream
 * serve:learn`, a driver sending predict requests alternately to the two and then the labels of the
 * answers (a logistic world, seeded). Mid-stream the learner is SIGKILLed (labels still arriving)
 * and restarted, and one server is SIGKILLed at its first answer of a round, its other requests of
 * the round in flight (those it logged and never answered expire unlabelled and are dropped), and
 * restarted. Then: no logged prediction is lost (every answered prediction is on the predictions
 * topic, as answered); every
 * label is learned exactly once (the learner's durable count is the number of labels sent, nothing
 * pending once the unanswered predictions' windows closed, nothing dead-lettered); the published
 * posterior is bit for bit (tolerance 0) the partitions' joined records folded in their log order
 * into fresh models merged in partition order — what an uninterrupted learner computes, since
 * learning draws nothing at random and the merge order is fixed; and the surviving server swaps it
 * in and answers with its version.
 */
describe('vbstream serve and serve:learn: SIGKILL of the learner and of a server (real broker)', () => {
  const { port, admin } = suiteBroker();

  it('loses no logged prediction, learns every label once and serves the posterior of an uninterrupted run', async () => {
    const prefix = unique('serve-kill');
    const learnerArgs = ['--predictions', `${prefix}.predictions`, '--outcomes', `${prefix}.outcomes`, '--model', 'live', '--state-topic', `${prefix}.state`,
      '--family', FAMILY, '--dim', String(D), '--label-window-ms', String(WINDOW_MS), '--partitions', String(PARTITIONS), '--snapshot-every', '15',
      '--session-timeout-ms', '6000', '--no-metrics'];
    let learner = new ServiceProcess<KeyedJoinEvent>(learnerArgs, 'serve:learn');
    await waitFor(() => learner.events.some((e) => e.type === 'published'), () => `the learner to publish its first posterior (stderr: ${learner.stderr})`);
    const servers = [server(prefix), server(prefix)];
    const urls = await Promise.all(servers.map(predictUrl));

    const world = Rng.fromSeed(23);
    const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const answered: { x: number[]; prediction: Prediction }[] = [];
    const labelOf = (x: readonly number[]): number => Number(world.nextDouble() < 1 / (1 + Math.exp(-x.reduce((s, v, j) => s + v * WEIGHTS[j], 0))));
    const sendLabels = async (batch: readonly { x: number[]; prediction: Prediction }[]): Promise<void> => {
      for (let start = 0; start < batch.length; start += 10) {
        const messages = batch.slice(start, start + 10).map(({ x, prediction }) => ({ key: prediction.predictionId, value: JSON.stringify({ predictionId: prediction.predictionId, y: labelOf(x) }) }));
        await producer.send({ topic: `${prefix}.outcomes`, acks: -1, messages });
      }
    };

    let learnerKilledAt = -1;
    let serverKilledAt = -1;
    for (let round = 0; round < ROUNDS; round++) {
      const contexts = Array.from({ length: PER_ROUND }, () => [1, world.normal(), world.normal()]);
      const killServer = serverKilledAt < 0 && round === 2;
      let answeredByB = 0;
      let killing: Promise<unknown> | undefined;
      const made = (await Promise.all(contexts.map(async (x, i) => {
        try {
          const prediction = await predict(urls[i % 2], x);
          if (killServer && i % 2 === 1 && ++answeredByB === 1) killing = servers[1].kill(); // at its first answer of the round, the rest of its requests in flight
          return [{ x, prediction }];
        } catch (error) {
          if (killServer && i % 2 === 1) return []; // a request the killed server never answered
          throw error;
        }
      }))).flat();
      answered.push(...made);
      if (killServer) {
        expect(await killing).toMatchObject({ signal: 'SIGKILL' });
        serverKilledAt = round;
        servers[1] = server(prefix);
        urls[1] = await predictUrl(servers[1]);
      }
      const killLearner = learnerKilledAt < 0 && learner.events.filter((e) => e.type === 'checkpoint' && e.learned > 0).length >= 2;
      const sending = sendLabels(made);
      if (killLearner) {
        // Mid-stream: while this round's labels arrive, some learned since the last snapshot, some not yet read.
        await new Promise((resolve) => setTimeout(resolve, 20 + world.nextDouble() * 200));
        await learner.kill();
        learnerKilledAt = round;
        learner = new ServiceProcess<KeyedJoinEvent>(learnerArgs, 'serve:learn');
      }
      await sending;
    }
    expect(serverKilledAt, 'a server was killed mid-stream').toBe(2);
    expect(learnerKilledAt, 'the learner was killed mid-stream').toBeGreaterThanOrEqual(0);
    expect(learnerKilledAt).toBeLessThan(ROUNDS - 1);
    await producer.disconnect();

    // No logged prediction lost: every answered one is on the predictions topic, as answered; three server instances logged.
    const logged = (await admin.fetchTopicOffsets(`${prefix}.predictions`)).reduce((sum, o) => sum + Number(o.high), 0);
    const byId = new Map((await readRecords(port, `${prefix}.predictions`, logged)).map((r) => [r.key!, JSON.parse(r.value!.toString()) as LoggedPrediction]));
    expect(byId.size, 'prediction ids unique').toBe(logged);
    for (const { x, prediction } of answered) expect(byId.get(prediction.predictionId)).toMatchObject({ x, version: prediction.version, mean: prediction.mean, variance: prediction.variance });
    expect(new Set([...byId.values()].map((p) => p.instance)).size).toBe(3);

    // Every label learned once: the durable count is the labels sent, nothing pending once the unanswered predictions expired (dropped).
    const done = (e: KeyedJoinEvent): boolean => e.type === 'published' && e.pending === 0 && e.learned === answered.length;
    await waitFor(() => learner.events.some(done), () => `the restarted learner to learn all ${answered.length} labels and expire the rest (stderr: ${learner.stderr})`, WINDOW_MS + PATIENCE_MS);
    expect(learner.events.find((e) => e.type === 'restored'), 'the restarted learner restored the state').toMatchObject({ fromSnapshot: true });
    expect((await admin.fetchTopicOffsets(`${prefix}.outcomes.dlq`)).map((o) => Number(o.high)), 'no label dead-lettered (none duplicate, late or unknown)').toEqual(new Array<number>(PARTITIONS).fill(0));
    expect(learner.stderr).toBe('');

    // The published posterior: each partition's labels, in log order, folded into a fresh model; the partitions merged in order.
    const store = await KafkaSnapshotStore.open(port, { topic: `${prefix}.state` });
    const published = (await readGlobalPosterior(store, 'live'))!;
    const outcomes = await readRecords(port, `${prefix}.outcomes`, (await admin.fetchTopicOffsets(`${prefix}.outcomes`)).reduce((sum, o) => sum + Number(o.high), 0));
    const family = getFamily(FAMILY);
    const expected = family.create(D);
    let labels = 0;
    for (let p = 0; p < PARTITIONS; p++) {
      const model: OnlineModel = family.create(D);
      for (const record of outcomes.filter((r) => r.partition === p).sort((a, b) => Number(a.offset) - Number(b.offset))) {
        const outcome = JSON.parse(record.value!.toString()) as { predictionId: string; y?: number; expired?: boolean };
        if (outcome.expired === true) continue; // an unanswered prediction's window closed: dropped
        model.update({ x: Float64Array.from(byId.get(outcome.predictionId)!.x), y: Float64Array.of(outcome.y!), n: 1, d: D });
        labels++;
      }
      expected.merge!(model);
    }
    expect(labels).toBe(answered.length);
    expect(published.model.snapshot()).toEqual(expected.snapshot());
    expect(published.records).toBe(answered.length);
    await store.close();

    // The surviving server swaps in the learner's posterior and answers with its version.
    await waitFor(async () => (await predict(urls[0], [1, 0, 0])).version === published.version, () => `the surviving server to serve version ${published.version}`);
    expect(await learner.stop()).toEqual({ code: 0, signal: null });
    for (const s of servers) expect(await s.stop()).toEqual({ code: 0, signal: null });
  }, 2 * WINDOW_MS + 3 * PATIENCE_MS);
});
