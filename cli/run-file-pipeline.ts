import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { concatMap, EMPTY, ignoreElements, lastValueFrom, merge, share, tap } from 'rxjs';
import { JsonlSink } from '../connectors/file/jsonl-sink.js';
import type { RecordSource } from '../connectors/file/record-source.js';
import { resumeOffset } from '../connectors/file/resume-offset.js';
import { SnapshotDirectory } from '../connectors/file/snapshot-directory.js';
import { SyntheticSource } from '../connectors/file/synthetic-source.js';
import { withIntercept } from '../connectors/file/with-intercept.js';
import { BackpressureValve } from '../operators/backpressure-valve.js';
import type { BadRecord } from '../operators/bad-record.js';
import type { LabelledRecord } from '../operators/labelled-record.js';
import { checkpoints } from '../operators/checkpoints.js';
import { InProcessLearner } from '../operators/in-process-learner.js';
import { learn } from '../operators/learn.js';
import type { Learner } from '../operators/learner.js';
import { minibatch } from '../operators/minibatch.js';
import { prequential } from '../operators/prequential.js';
import type { PrequentialReport } from '../operators/prequential-report.js';
import { snapshots } from '../operators/snapshots.js';
import { WorkerLearner } from '../operators/worker/worker-learner.js';
import { decodeSnapshotEvent } from '../src/core/decode-snapshot-event.js';
import type { JsonValue } from '../src/core/model-snapshot.js';
import { SnapshotError } from '../src/core/snapshot-error.js';
import { getFamily } from '../src/registry.js';
import { openPipelineSource } from './open-pipeline-source.js';
import type { PipelineConfig } from './pipeline-config.js';
import type { PipelineMonitor } from './pipeline-monitor.js';
import type { PipelineIo, PipelineResult } from './pipeline-result.js';

const count = (n: number) => Math.round(n).toLocaleString('en-US');
const fixed = (n: number | undefined, digits = 4) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));

type FileConfig = PipelineConfig & { readonly source: { readonly type: 'synthetic' | 'csv' | 'jsonl' | 'stdin' } };

/**
 * A file, stdin or synthetic source through the runtime: source → minibatch → learn (in a worker,
 * or in-process) with test-then-train scoring, behind a bounded queue that pauses the source →
 * prequential progress on `out`, predictions to the configured sink, snapshots checkpointed to the
 * directory store, bad records to their sink. With `resume`, the model and the source position come
 * from the latest snapshot (whose positions are keyed by the data's content identity); the model
 * takes `schema.maxAbsInput` either way (a record beyond it is a bad record). `stop`
 * (Ctrl-C) stops the source; in-flight records are drained and a final snapshot written.
 */
export async function runFilePipeline(config: FileConfig, io: PipelineIo, monitor: PipelineMonitor | undefined): Promise<PipelineResult> {
  const { out, err } = io;
  const family = config.model.family;
  const dir = config.snapshots.dir ?? './snapshots';
  const keep = config.snapshots.keep ?? 5;
  const previous = new SnapshotDirectory(dir, keep);
  const restored = io.resume ? await previous.restoreLatest({ family }) : undefined;
  if (io.resume) out.write(restored === undefined ? `no snapshot in ${previous.dir}: starting fresh\n` : `resuming from ${restored.path} (${count(restored.event.recordsSeen)} records, positions ${JSON.stringify(restored.event.positions)})\n`);

  let bad = 0;
  const badSink = config.sinks.badRecords.type === 'jsonl' ? new JsonlSink(createWriteStream(config.sinks.badRecords.path)) : undefined;
  const badRecords = {
    next(record: BadRecord) {
      bad++;
      monitor?.rejected(record.error);
      if (badSink !== undefined) void badSink.write({ reason: record.reason, record: record.record as JsonValue });
      else if (bad <= 20) err.write(`bad record: ${record.reason}${bad === 20 ? ' (further bad records are only counted)' : ''}\n`);
    },
  };
  const names = restored?.meta.sources;
  const start = (source: { identity: string; name: string }): number => (restored === undefined ? 0
    : resumeOffset(restored.event.positions, source, restored.path, typeof names === 'object' && names !== null && !Array.isArray(names) ? names : {}));
  const opened = await openPipelineSource(config, start, badRecords);
  const { description } = opened;
  const source = config.schema.intercept === true ? withIntercept(opened.source) : opened.source;
  const dim = source.features.length;
  try {
    await refuseForeignSnapshots(previous, family, source);
  } catch (error) {
    source.stop();
    throw error;
  }
  monitor?.describeFeatures(source.features);
  if (restored !== undefined && restored.model.dim !== dim) {
    source.stop();
    throw new SnapshotError(`snapshot has ${restored.model.dim} features but the source has ${dim}`, { source: restored.path, field: 'dim', value: restored.model.dim });
  }
  const store = new SnapshotDirectory(dir, keep, { sources: { [source.identity]: source.name } });
  const options = config.model.options as { [key: string]: JsonValue } | undefined;
  const limits = { maxAbsInput: config.schema.maxAbsInput };
  let learner: Learner;
  if (config.worker) {
    const worker = { metrics: monitor && { partition: '' }, limits };
    const remote = restored !== undefined ? await WorkerLearner.restore(restored.model.snapshot(), worker) : await WorkerLearner.create(family, dim, options, worker);
    monitor?.watch(remote);
    learner = remote;
  } else {
    const model = restored === undefined ? getFamily(family).create(dim, options, limits) : getFamily(family).restore(restored.model.snapshot(), limits);
    learner = new InProcessLearner(model, monitor?.modelMonitor());
  }
  monitor?.readiness.set('model-restored');

  try {
    return await drive(config, source, learner, store, badRecords, { out, err, description, onSource: io.onSource, bad: () => bad, previous: restored?.path, monitor });
  } finally {
    if (learner instanceof WorkerLearner) await learner.close();
    await badSink?.close();
  }
}

async function drive(
  config: FileConfig, source: RecordSource, learner: Learner, store: SnapshotDirectory, badRecords: { next(record: BadRecord): void },
  ui: { out: Writable; err: Writable; description: string; onSource(stop: () => void): void; bad(): number; previous?: string; monitor?: PipelineMonitor },
): Promise<PipelineResult> {
  const { out, monitor } = ui;
  const policy = [config.snapshots.everyRecords && `every ${count(config.snapshots.everyRecords)} records`, config.snapshots.everyMs && `every ${config.snapshots.everyMs / 1000} s`, 'at the end'].filter(Boolean).join(', ');
  out.write(`vbstream run: ${ui.description} → ${learner.family} (d=${learner.dim}) ${config.worker ? 'in a worker thread' : 'in-process'}; minibatch ${config.minibatch.size}; snapshots ${policy} to ${store.dir} (keep ${store.keep})\n`);
  out.write('Ctrl-C stops: in-flight records are learned and a final snapshot is written.\n');
  out.write('    records   records/s   log-loss     brier   sq.error   queue  snapshots     bad\n');
  const valve = new BackpressureValve(source, config.queue.capacity);
  ui.onSource(() => {
    monitor?.readiness.set('source-consuming', false);
    source.stop();
  });
  const startSeen = learner.recordsSeen;
  const started = performance.now();
  let report: PrequentialReport | undefined;
  let saved = 0;
  let lastSnapshot = ui.previous;
  let lastLine = { at: started, seen: startSeen };
  const line = (): void => {
    const now = performance.now();
    const seen = learner.recordsSeen;
    const rate = ((seen - lastLine.seen) / Math.max(now - lastLine.at, 1)) * 1000;
    lastLine = { at: now, seen };
    out.write(`${count(seen).padStart(11)} ${count(rate).padStart(11)} ${fixed(report?.logLoss).padStart(10)} ${fixed(report?.brier).padStart(9)} ${fixed(report?.squaredError).padStart(10)} ${String(valve.depth).padStart(7)} ${String(saved).padStart(10)} ${String(ui.bad()).padStart(7)}\n`);
  };
  const predictionSink = config.sinks.predictions.type === 'jsonl' ? new JsonlSink(createWriteStream(config.sinks.predictions.path)) : undefined;
  const learned$ = source.records$.pipe(tap(taskCheck(learner.family, ui.err)), minibatch(config.minibatch.size, config.minibatch.maxWaitMs ?? 50), learn(learner, { evaluate: true, badRecords, valve }));
  const events$ = (monitor === undefined ? learned$ : learned$.pipe(tap((event) => monitor.updated(event)))).pipe(share());
  const ticker = setInterval(line, config.progress.everyMs);
  try {
    const done = lastValueFrom(merge(
      events$.pipe(prequential(), tap((r) => { report = r; }), ignoreElements()),
      events$.pipe(
        snapshots({ everyRecords: config.snapshots.everyRecords, everyMs: config.snapshots.everyMs }),
        checkpoints(store),
        tap((checkpoint) => {
          monitor?.snapshotSaved(checkpoint.bytes);
          lastSnapshot = checkpoint.location;
          saved++;
        }),
        ignoreElements(),
      ),
      predictionSink === undefined ? EMPTY : events$.pipe(concatMap(async (event) => {
        const s = event.scores!;
        for (let i = 0; i < event.labels.length; i++) {
          await predictionSink.write({ row: event.rows[i], y: event.labels[i], mean: s.mean[i], variance: s.variance[i], logLoss: s.logLoss[i] });
        }
      }), ignoreElements()),
    ), { defaultValue: undefined });
    monitor?.readiness.set('source-consuming');
    await done;
  } finally {
    monitor?.readiness.set('source-consuming', false);
    clearInterval(ticker);
    await predictionSink?.close();
  }
  line();
  const seconds = (performance.now() - started) / 1000;
  out.write(`\ndone: ${count(learner.recordsSeen - startSeen)} records in ${seconds.toFixed(1)} s (${count((learner.recordsSeen - startSeen) / Math.max(seconds, 1e-3))}/s), ${count(learner.recordsSeen)} in the model, ${ui.bad()} bad\n`);
  out.write(`${saved > 0 ? 'final snapshot' : 'no new records; latest snapshot'}: ${lastSnapshot ?? '(none)'}\n`);
  if (report !== undefined) summarise(out, report);
  if (source instanceof SyntheticSource && source.options.kind !== 'gp' && learner.recordsSeen > 0) {
    const snapshot = await learner.snapshot();
    const mean = getFamily(snapshot.family).restore(snapshot).posteriorMean();
    out.write(`posterior mean / truth: ${Array.from(mean, (m, j) => `${m.toFixed(2)}/${source.generator.truth[j].toFixed(2)}`).join('  ')}\n`);
  }
  return { recordsSeen: learner.recordsSeen, badRecords: ui.bad(), snapshot: lastSnapshot, report };
}

function summarise(out: Writable, report: PrequentialReport): void {
  out.write(`prequential (test-then-train) over ${count(report.records)} records: log-loss ${fixed(report.logLoss)}${Number.isNaN(report.brier) ? '' : `, Brier ${fixed(report.brier)}`}${Number.isNaN(report.squaredError) ? '' : `, squared error ${fixed(report.squaredError)}`}\n`);
  if (report.calibration.length > 0) {
    out.write('calibration:  p(y=1) bin   count   mean predicted   observed rate\n');
    for (const bin of report.calibration) {
      if (bin.count > 0) out.write(`              ${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)} ${count(bin.count).padStart(9)} ${fixed(bin.meanPredicted, 3).padStart(16)} ${fixed(bin.observedRate, 3).padStart(15)}\n`);
    }
  }
}

/**
 * Refuses (one line) a snapshot directory whose newest snapshot is of another family or another
 * source: learning there would mix the two pipelines' snapshots and prune the other's.
 */
async function refuseForeignSnapshots(directory: SnapshotDirectory, family: string, source: RecordSource): Promise<void> {
  const files = await directory.list();
  const newest = files.at(-1);
  if (newest === undefined) return;
  const { event, meta } = decodeSnapshotEvent(new Uint8Array(await readFile(newest)), newest);
  const sources = typeof meta.sources === 'object' && meta.sources !== null && !Array.isArray(meta.sources) ? meta.sources : {};
  const sameSource = source.identity in sources || Object.values(sources).includes(source.name);
  if (event.snapshot.family === family && sameSource) return;
  const theirs = `${event.snapshot.family} on ${Object.values(sources).join(', ') || 'an unnamed source'}`;
  throw new SnapshotError(`${directory.dir} holds snapshots of another pipeline (${theirs}); give this one its own snapshots.dir, or move those away`, { source: newest });
}

/** Labels a family's task is checked on: the first 200 (or all, if fewer). */
const TASK_CHECK_RECORDS = 200;

/**
 * A one-line warning on `err` when the labels do not fit the family's task, judged on the first
 * 200 labels (or all, if fewer): a regression family whose labels are all 0/1, a binary family
 * most of whose labels are not 0/1 (a stray bad label is a bad record, not a wrong family).
 */
function taskCheck(familyId: string, err: Writable): { next(record: LabelledRecord): void; complete(): void } {
  const task = getFamily(familyId).task;
  let seen = 0;
  let binary = 0;
  let checked = task === 'count';
  const check = (): void => {
    checked = true;
    const which = seen === TASK_CHECK_RECORDS ? `the first ${seen}` : `${seen}`;
    if (task === 'regression' && seen > 0 && binary === seen) {
      err.write(`warning: ${familyId} is a regression family, but ${which} labels are all 0/1: for a binary label use a binary family (adf-logit; vbstream models lists them)\n`);
    } else if (task === 'classification' && binary < seen / 2) {
      err.write(`warning: ${familyId} is a binary family, but ${seen - binary} of ${which} labels are not 0/1: for a real-valued label use a regression family (vb-linear; vbstream models lists them)\n`);
    }
  };
  return {
    next(record) {
      if (checked || Number.isNaN(record.y)) return;
      seen++;
      if (record.y === 0 || record.y === 1 || (task === 'classification' && record.y === -1)) binary++;
      if (seen === TASK_CHECK_RECORDS) check();
    },
    complete() {
      if (!checked) check();
    },
  };
}
