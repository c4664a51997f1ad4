import { parentPort, workerData } from 'node:worker_threads';
import { candidateBound, type CandidateBound } from '../src/selection/candidate-bound.js';
import type { SelectJob, SelectJobResult } from './select-job.js';
import { workerFailureOf } from './worker-failure.js';

/** The worker side of `vbstream select`: fits its candidates one after the other to the training set and posts their variational bounds (or the first typed error, with its candidate) back. */
const job = workerData as SelectJob;
const bounds: CandidateBound[] = [];
let result: SelectJobResult = { ok: true, bounds };
for (const candidate of job.candidates) {
  try {
    bounds.push(candidateBound(candidate, job.train));
  } catch (error) {
    result = { ok: false, candidate: candidate.name, ...workerFailureOf(error) };
    break;
  }
}
parentPort?.postMessage(result);
