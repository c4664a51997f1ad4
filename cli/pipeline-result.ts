import type { Writable } from 'node:stream';
import type { PrequentialReport } from '../operators/prequential-report.js';

/** How a pipeline run ended. */
export interface PipelineResult {
  readonly recordsSeen: number;
  readonly badRecords: number;
  readonly snapshot?: string;
  readonly report?: PrequentialReport;
}

/** What a run talks to: its output streams, whether to resume, and how it hands out its stop. */
export interface PipelineIo {
  readonly out: Writable;
  readonly err: Writable;
  readonly resume: boolean;
  /** Called once the source is open with the function that stops it (Ctrl-C). */
  onSource(stop: () => void): void;
}
