import { from, lastValueFrom, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeChunk } from '../../../connectors/kafka/decode-chunk.js';
import type { DeadLetterReason } from '../../../connectors/kafka/dead-letter-reason.js';
import { encodeChunk } from '../../../connectors/kafka/encode-chunk.js';
import type { PortMessage } from '../../../connectors/kafka/kafka-port.js';
import { RecordDecoder } from '../../../connectors/kafka/record-decoder.js';
import type { BadRecord } from '../../../operators/bad-record.js';
import { InProcessLearner } from '../../../operators/in-process-learner.js';
import { learn } from '../../../operators/learn.js';
import type { UpdateEvent } from '../../../operators/update-event.js';
import type { DecoderSpec } from '../../../operators/worker/worker-decoders.js';
import { WorkerLearner } from '../../../operators/worker/worker-learner.js';
import { ConfigError } from '../../../src/core/config-error.js';
import { InputError } from '../../../src/core/input-error.js';
import { VbstreamError } from '../../../src/core/vbstream-error.js';
import { getFamily } from '../../../src/registry.js';
import { expectSameState } from '../../helpers/same-state.js';

const ENTRY = 'connectors/kafka/decoding-model-worker.js';
const D = 3;
const schema = { dim: D, task: 'classification' as const, maxBytes: 200 };
const spec: DecoderSpec = { kind: 'kafka-json', config: schema, weighted: false };

const open: WorkerLearner[] = [];
afterAll(async () => { await Promise.all(open.map((w) => w.close())); });

function message(offset: number, value: string | null): PortMessage {
  return { key: Buffer.from(`k${offset}`), value: value === null ? null : Buffer.from(value), offset: String(offset), timestamp: '0' };
}

/** Good records, with one of each decoder refusal among them (1e200: out of range), from offset 100. */
function messages(): PortMessage[] {
  const values: (string | null)[] = [];
  for (let i = 0; i < 40; i++) values.push(JSON.stringify({ x: [1, Math.sin(i), Math.cos(3 * i)], y: i % 3 === 0 ? 1 : 0 }));
  values.splice(3, 0, null);
  values.splice(7, 0, '');
  values.splice(11, 0, '{"x":[1,2');
  values.splice(15, 0, '{"x":[1,2],"y":1}');
  values.splice(19, 0, '{"x":[1,"2",3],"y":1}');
  values.splice(23, 0, '{"x":[1,2,3],"y":0.5}');
  values.splice(27, 0, `{"x":[1,2,3],"y":1,"pad":"${'a'.repeat(300)}"}`);
  values.splice(31, 0, '{"x":[1,1e200,3],"y":1}');
  return values.map((value, i) => message(100 + i, value));
}

/** Dead letters as `PartitionedLearner` files them: the decoder's reason, else the model's. */
function deadLetters(bad: BadRecord[]): { offset: string; reason: DeadLetterReason; detail: string }[] {
  return bad.map((b) => ({
    offset: (b.record as PortMessage).offset,
    reason: (b.code ?? (b.error instanceof VbstreamError && b.error.kind === 'numerical' ? 'non-finite-result' : 'refused-by-model')) as DeadLetterReason,
    detail: b.reason,
  }));
}

describe('decoding Kafka values in the partition model worker', () => {
  it('refuses the same records with the same reasons and learns the same model as decoding in this thread, bit for bit', async () => {
    const all = messages();
    const worker = await WorkerLearner.create('vb-logit-online', D, undefined, { entry: ENTRY });
    open.push(worker);
    const local = new InProcessLearner(getFamily('vb-logit-online').create(D));
    const chunks = [[0, 20], [20, all.length]] as const;

    const workerBad: BadRecord[] = [];
    const encoded = chunks.map(([a, b]) => encodeChunk(all, a, b, 102, { topic: 't', partition: 0, decoder: spec }).chunk);
    const workerEvents = await lastValueFrom(from(encoded).pipe(learn(worker, { badRecords: { next: (bad) => workerBad.push(bad) }, evaluate: true }), toArray()));

    const localBad: { offset: string; reason: DeadLetterReason; detail: string }[] = [];
    const decoder = new RecordDecoder(schema);
    const x = new Float64Array(all.length * D);
    const y = new Float64Array(all.length);
    const decoded = chunks.map(([a, b]) => decodeChunk(all, a, b, 102, { topic: 't', partition: 0, dim: D, decoder, x, y, bad: (m, reason, detail) => localBad.push({ offset: m.offset, reason, detail }) }).chunk);
    const modelBad: BadRecord[] = [];
    const localEvents = await lastValueFrom(from(decoded).pipe(learn(local, { badRecords: { next: (bad) => modelBad.push(bad) }, evaluate: true }), toArray()));

    expect(deadLetters(workerBad)).toEqual([...localBad, ...deadLetters(modelBad)].sort((a, b) => Number(a.offset) - Number(b.offset)));
    expect(deadLetters(workerBad).map((b) => b.reason)).toEqual(['empty', 'empty', 'bad-json', 'wrong-width', 'non-numeric', 'bad-label', 'oversize', 'out-of-range']);
    const refusal = workerBad.find((b) => b.code === 'non-numeric')!;
    expect(refusal.error).toBeInstanceOf(InputError);
    expect(refusal.error).toMatchObject({ location: { row: Number((refusal.record as PortMessage).offset) } });
    expect(workerEvents.map((e) => [e.offered, e.rejected, Array.from(e.labels), Array.from(e.rows), e.positions, Array.from(e.scores!.logLoss)]))
      .toEqual(localEvents.map((e) => [e.offered, e.rejected, Array.from(e.labels), Array.from(e.rows), e.positions, Array.from(e.scores!.logLoss)]));
    expect(workerEvents.map((e) => e.offered)).toEqual([18, all.length - 20]); // offsets 100, 101 were learned already
    expect(worker.recordsSeen).toBe(local.recordsSeen);
    expectSameState(await worker.snapshot(), local.snapshot());
  });

  it('a chunk with a minibatch is learned in one update per minibatch of encoded records: refusals, labels, rows, scores and the model as one chunk per minibatch, bit for bit', async () => {
    const all = messages();
    const [sliced, chunked] = await Promise.all([0, 1].map(() => WorkerLearner.create('vb-logit-online', D, undefined, { entry: ENTRY })));
    open.push(sliced, chunked);
    const run = async (learner: WorkerLearner, chunks: readonly ReturnType<typeof encodeChunk>['chunk'][]): Promise<{ bad: ReturnType<typeof deadLetters>; events: UpdateEvent[] }> => {
      const bad: BadRecord[] = [];
      const events = await lastValueFrom(from(chunks).pipe(learn(learner, { badRecords: { next: (b) => bad.push(b) }, evaluate: true }), toArray()));
      return { bad: deadLetters(bad), events };
    };
    const one = await run(sliced, [encodeChunk(all, 0, all.length, 102, { topic: 't', partition: 0, decoder: spec, minibatch: 7 }).chunk]);
    const ends = Array.from({ length: Math.ceil((all.length - 2) / 7) }, (_, k) => Math.min(all.length, 2 + 7 * (k + 1)));
    const many = await run(chunked, ends.map((end, k) => encodeChunk(all, k === 0 ? 0 : ends[k - 1], end, 102, { topic: 't', partition: 0, decoder: spec }).chunk));
    const flat = (events: UpdateEvent[], pick: (e: UpdateEvent) => Float64Array): number[] => events.flatMap((e) => Array.from(pick(e)));
    expect(one.events).toHaveLength(1);
    expect(many.events.length).toBeGreaterThan(4);
    expect(one.bad.map((b) => [b.offset, b.reason])).toEqual(many.bad.map((b) => [b.offset, b.reason]).sort((a, b) => Number(a[0]) - Number(b[0])));
    for (const pick of [(e: UpdateEvent) => e.labels, (e: UpdateEvent) => e.rows, (e: UpdateEvent) => e.scores!.logLoss, (e: UpdateEvent) => e.scores!.mean]) {
      expect(flat(one.events, pick)).toEqual(flat(many.events, pick));
    }
    expect(one.events[0]).toMatchObject({ offered: all.length - 2, rejected: one.bad.length, positions: many.events.at(-1)!.positions, recordsSeen: many.events.at(-1)!.recordsSeen });
    expect(one.events[0].stats.records).toBe(many.events.reduce((sum, e) => sum + e.stats.records, 0));
    expectSameState(await sliced.snapshot(), await chunked.snapshot());
  });

  it('decodes a chunk with values that are not ASCII (UTF-8 field names and text, bytes that are not UTF-8) as this thread does, and an ASCII one beside it', async () => {
    const named = { dim: D, task: 'classification' as const, features: ['größe', 'b', 'c'] };
    const record = (i: number, extra = ''): string => `{"größe":1,"b":${Math.sin(i)},"c":${Math.cos(i)},"y":${i % 2}${extra}}`;
    const mixed = [record(0), record(1, ',"note":"é"'), record(2), Buffer.from([0x7b, 0xff, 0x7d]), record(3)];
    const ascii = ['{"grosse":1,"b":2,"c":3,"y":1}', '{"x":[1,2,3],"y":0}'];
    const all = [...mixed, ...ascii].map((value, i) => ({ ...message(i, null), value: Buffer.from(value) }));
    const worker = await WorkerLearner.create('vb-logit-online', D, undefined, { entry: ENTRY });
    open.push(worker);
    const workerBad: BadRecord[] = [];
    const namedSpec: DecoderSpec = { kind: 'kafka-json', config: named, weighted: false };
    const encoded = [encodeChunk(all, 0, mixed.length, null, { topic: 't', partition: 0, decoder: namedSpec }).chunk, encodeChunk(all, mixed.length, all.length, null, { topic: 't', partition: 0, decoder: namedSpec }).chunk];
    await lastValueFrom(from(encoded).pipe(learn(worker, { badRecords: { next: (b) => workerBad.push(b) } })));
    const local = getFamily('vb-logit-online').create(D);
    const localBad: { offset: string; reason: DeadLetterReason; detail: string }[] = [];
    const { chunk } = decodeChunk(all, 0, all.length, null, { topic: 't', partition: 0, dim: D, decoder: new RecordDecoder(named), x: new Float64Array(all.length * D), y: new Float64Array(all.length), bad: (m, reason, detail) => localBad.push({ offset: m.offset, reason, detail }) });
    local.update(chunk.batch);
    expect(deadLetters(workerBad)).toEqual(localBad);
    expect(localBad.map((b) => [b.offset, b.reason, b.detail])).toEqual([['3', 'bad-json', 'value is not valid UTF-8'], ['5', 'bad-shape', 'feature field größe is missing'], ['6', 'bad-shape', 'feature field größe is missing']]);
    expectSameState(await worker.snapshot(), local.snapshot());
  });

  it('with maxAbsInput raised on the schema and the model alike, a value the family cannot take finitely reaches the model and is refused as non-finite-result, the rest learned', async () => {
    const limits = { maxAbsInput: 1e250 };
    const wide = { ...schema, ...limits };
    const values = Array.from({ length: 12 }, (_, i) => JSON.stringify({ x: [1, Math.sin(i), Math.cos(3 * i)], y: i % 3 === 0 ? 1 : 0 }));
    values.splice(4, 0, '{"x":[1,1e200,3],"y":1}');
    values.splice(8, 0, '{"x":[1,1e300,3],"y":1}');
    const all = values.map((value, i) => message(i, value));
    const local = getFamily('vb-logit-online').create(D);
    for (const [i, value] of values.entries()) if (i !== 4 && i !== 8) local.update({ x: Float64Array.from(JSON.parse(value).x), y: Float64Array.of(JSON.parse(value).y), n: 1, d: D });
    for (const minibatch of [undefined, 3]) { // with 3, the refused record is in the second update of the chunk
      const worker = await WorkerLearner.create('vb-logit-online', D, undefined, { entry: ENTRY, limits });
      open.push(worker);
      const bad: BadRecord[] = [];
      await lastValueFrom(from([encodeChunk(all, 0, all.length, null, { topic: 't', partition: 0, decoder: { kind: 'kafka-json', config: wide, weighted: false }, ...(minibatch === undefined ? {} : { minibatch }) }).chunk]).pipe(learn(worker, { badRecords: { next: (b) => bad.push(b) } })));
      expect(deadLetters(bad).map((b) => [b.offset, b.reason])).toEqual([['8', 'out-of-range'], ['4', 'non-finite-result']]); // the decoder's refusals first
      expectSameState(await worker.snapshot(), local.snapshot());
    }
  });

  it('weighted records (a weight field) learn as decoding in this thread does, bad weights refused', async () => {
    const weighted = { dim: D, task: 'regression' as const, weight: 'w' };
    const values = Array.from({ length: 30 }, (_, i) => JSON.stringify({ x: [1, i / 10, Math.sin(i)], y: Math.cos(i), ...(i % 4 === 0 ? {} : { w: i === 7 ? -1 : (i % 5) / 2 }) }));
    const all = values.map((value, i) => message(i, value));
    const worker = await WorkerLearner.create('vb-linear', D, undefined, { entry: ENTRY });
    open.push(worker);
    const bad: BadRecord[] = [];
    await lastValueFrom(from([encodeChunk(all, 0, all.length, null, { topic: 't', partition: 0, decoder: { kind: 'kafka-json', config: weighted, weighted: true } }).chunk]).pipe(learn(worker, { badRecords: { next: (b) => bad.push(b) } })));
    const local = getFamily('vb-linear').create(D);
    const { chunk } = decodeChunk(all, 0, all.length, null, { topic: 't', partition: 0, dim: D, decoder: new RecordDecoder(weighted), x: new Float64Array(all.length * D), y: new Float64Array(all.length), weights: new Float64Array(all.length), bad: () => undefined });
    local.update(chunk.batch);
    expect(bad.map((b) => [(b.record as PortMessage).offset, b.code])).toEqual([['7', 'bad-shape']]);
    expectSameState(await worker.snapshot(), local.snapshot());
  });

  it('a chunk of refused records only leaves the model untouched and still moves the positions', async () => {
    const worker = await WorkerLearner.create('vb-logit-online', D, undefined, { entry: ENTRY });
    open.push(worker);
    const before = await worker.snapshot();
    const bad: BadRecord[] = [];
    const all = [message(5, null), message(6, 'nope')];
    const [event] = await lastValueFrom(from([encodeChunk(all, 0, 2, null, { topic: 't', partition: 2, decoder: spec }).chunk]).pipe(learn(worker, { badRecords: { next: (b) => bad.push(b) } }), toArray()));
    expect(bad.map((b) => b.code)).toEqual(['empty', 'bad-json']);
    expect(event).toMatchObject({ offered: 2, rejected: 2, positions: { 't/2': 7 }, recordsSeen: 0 });
    expectSameState(await worker.snapshot(), before);
  });

  it('a learner that cannot decode refuses encoded chunks with a ConfigError', async () => {
    const plain = await WorkerLearner.create('vb-logit-online', D);
    open.push(plain);
    const chunk = (): ReturnType<typeof encodeChunk>['chunk'] => encodeChunk([message(0, '{"x":[1,2,3],"y":1}')], 0, 1, null, { topic: 't', partition: 0, decoder: spec }).chunk;
    await expect(lastValueFrom(from([chunk()]).pipe(learn(plain)))).rejects.toThrow(/no value decoder "kafka-json"/);
    await expect(lastValueFrom(from([chunk()]).pipe(learn(getFamily('vb-logit-online').create(D))))).rejects.toBeInstanceOf(ConfigError);
  });
});
