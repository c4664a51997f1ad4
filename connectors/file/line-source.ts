import { Observable } from 'rxjs';
import { createInterface, type Interface } from 'node:readline';
import type { Readable } from 'node:stream';
import { InputError } from '../../src/core/input-error.js';
import type { Pausable } from '../../operators/backpressure-valve.js';

/** One line of text and its 1-based line number. */
export interface Line {
  readonly text: string;
  readonly line: number;
}

/**
 * The lines of a readable stream (a file, stdin) as an Observable that can be paused, resumed and
 * stopped. `open` is called on subscription; unsubscribing or stopping closes the input. Lines
 * readline has already split when `pause` is called may still arrive (one chunk at most).
 */
export class LineSource implements Pausable {
  private reader: Interface | undefined;
  private paused = false;
  private stopped = false;

  constructor(private readonly open: () => Readable, readonly name: string) {}

  readonly lines$ = new Observable<Line>((subscriber) => {
    const input = this.open();
    const reader = createInterface({ input, crlfDelay: Infinity });
    this.reader = reader;
    let line = 0;
    reader.on('line', (text) => {
      if (!this.stopped) subscriber.next({ text, line: ++line });
    });
    reader.on('close', () => subscriber.complete());
    const fail = (error: Error): void => subscriber.error(new InputError(`cannot read: ${error.message}`, { source: this.name }, { cause: error }));
    input.on('error', fail);
    reader.on('error', fail);
    if (this.paused) reader.pause();
    if (this.stopped) reader.close();
    return () => {
      reader.close();
      input.destroy();
    };
  });

  pause(): void {
    this.paused = true;
    this.reader?.pause();
  }

  resume(): void {
    this.paused = false;
    this.reader?.resume();
  }

  /** Completes the lines after the current one. */
  stop(): void {
    this.stopped = true;
    this.reader?.close();
  }
}
