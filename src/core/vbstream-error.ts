/** Where a problem was found: any subset of row, column, field, value and source. */
export interface ErrorLocation {
  /** 1-based data row (as a user counts rows in a file or a stream). */
  readonly row?: number;
  /** Column index (1-based) or column name. */
  readonly column?: number | string;
  /** Field or option name. */
  readonly field?: string;
  /** The offending value. */
  readonly value?: unknown;
  /** File, topic or other source name. */
  readonly source?: string;
}

/** The kinds of typed error vbstream throws. */
export type ErrorKind = 'input' | 'shape' | 'numerical' | 'snapshot' | 'config' | 'io';

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function formatLocation(location: ErrorLocation): string {
  const parts: string[] = [];
  if (location.source !== undefined) parts.push(location.source);
  if (location.row !== undefined) parts.push(`row ${location.row}`);
  if (location.column !== undefined) parts.push(`column ${location.column}`);
  if (location.field !== undefined) parts.push(`field ${location.field}`);
  if ('value' in location) parts.push(`value ${describeValue(location.value)}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/**
 * Base class of every error vbstream throws on purpose. The message says what was wrong and,
 * through `location`, where; `retriable` tells an edge (a Kafka consumer, a worker) whether trying
 * the same operation again can succeed.
 */
export class VbstreamError extends Error {
  readonly kind: ErrorKind;
  readonly retriable: boolean;
  readonly location: ErrorLocation;
  /** The message without the location suffix. */
  readonly reason: string;

  constructor(kind: ErrorKind, reason: string, location: ErrorLocation = {}, retriable = false, options?: { cause?: unknown }) {
    super(`${reason}${formatLocation(location)}`, options);
    this.name = new.target.name;
    this.kind = kind;
    this.reason = reason;
    this.location = location;
    this.retriable = retriable;
  }
}
