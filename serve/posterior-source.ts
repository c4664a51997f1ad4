import type { PosteriorSink } from './posterior-sink.js';

/** Where a scoring service's posteriors come from: a snapshot directory, a Kafka snapshot topic, memory. */
export interface PosteriorSource {
  /** Where it reads, for log lines (`snapshots in /data/snapshots`, `topic t key m/global`). */
  readonly description: string;
  /**
   * Starts following: offers `sink` the latest snapshot there is and then every newer one as it
   * appears, each once, in order. `onFatal` is told when following stops for good (a Kafka consumer
   * that crashed); a snapshot that cannot be read is the sink's to report, never fatal.
   */
  start(sink: PosteriorSink, onFatal: (error: Error) => void): Promise<void>;
  /** Stops following (and disconnects what it connected). */
  stop(): Promise<void>;
}
