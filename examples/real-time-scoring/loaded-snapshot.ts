import type { OnlineModel, SnapshotEvent } from 'vbstream';

/**
 * A posterior snapshot restored and ready to serve, from any snapshot source (a directory store now;
 * a Kafka snapshot topic produces the same). `origin` says where it came from (a file path, or
 * `topic/partition@offset`); `sequence` increases with every newer snapshot of the source.
 */
export interface LoadedSnapshot {
  readonly model: OnlineModel;
  readonly event: SnapshotEvent;
  readonly origin: string;
  readonly sequence: number;
}
