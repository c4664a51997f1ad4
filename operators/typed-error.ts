import { ConfigError } from '../src/core/config-error.js';
import { InputError } from '../src/core/input-error.js';
import { NumericalError } from '../src/core/numerical-error.js';
import { ShapeError } from '../src/core/shape-error.js';
import { SnapshotError } from '../src/core/snapshot-error.js';
import { VbstreamError, type ErrorKind, type ErrorLocation } from '../src/core/vbstream-error.js';

/**
 * Rebuilds a typed error of the class its `kind` names (`input` → `InputError`, …): used to bring
 * an error back across a worker boundary and to restate a batch error at the record's stream row.
 */
export function typedError(kind: ErrorKind, reason: string, location: ErrorLocation, retriable = false, cause?: unknown): VbstreamError {
  const options = cause === undefined ? undefined : { cause };
  switch (kind) {
    case 'input': return new InputError(reason, location, options);
    case 'shape': return new ShapeError(reason, location, options);
    case 'numerical': return new NumericalError(reason, location, options);
    case 'snapshot': return new SnapshotError(reason, location, options);
    case 'config': return new ConfigError(reason, location, options);
    default: return new VbstreamError(kind, reason, location, retriable, options);
  }
}
