import { concatMap, from, type OperatorFunction } from 'rxjs';
import type { SnapshotEvent } from '../src/core/snapshot-event.js';
import type { Checkpoint, Checkpointer } from './checkpointer.js';

/** Makes each snapshot durable through `checkpointer`, one at a time and in order; a failure errors the stream. */
export function checkpoints(checkpointer: Checkpointer): OperatorFunction<SnapshotEvent, Checkpoint> {
  return concatMap((event) => from(checkpointer.checkpoint(event)));
}
