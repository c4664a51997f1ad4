import { once } from 'node:events';
import type { Writable } from 'node:stream';

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Float64Array) return Array.from(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (value instanceof Error) return { name: value.name, message: value.message };
  return value;
}

/**
 * Writes values as JSON lines to a stream (a file, stdout), honouring the stream's backpressure:
 * `write` resolves at once while the stream accepts data and after 'drain' when it is full.
 * Float64Arrays become arrays, non-finite numbers strings, errors {name, message}.
 */
export class JsonlSink {
  constructor(private readonly out: Writable) {}

  async write(value: unknown): Promise<void> {
    if (!this.out.write(`${JSON.stringify(value, replacer)}\n`)) await once(this.out, 'drain');
  }

  /** Ends the stream (not for stdout) and waits until it is flushed. */
  async close(): Promise<void> {
    if (this.out === process.stdout || this.out === process.stderr) return;
    this.out.end();
    await once(this.out, 'finish');
  }
}
