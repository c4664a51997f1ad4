import type { MetricDeltaMessage } from './metric-delta.js';

const isHistogram = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && (value as { counts?: unknown }).counts instanceof Float64Array &&
  typeof (value as { sum?: unknown }).sum === 'number' && typeof (value as { count?: unknown }).count === 'number';

/**
 * Whether a message received from a worker is a metrics message (as `WorkerMetricsReporter` posts);
 * other messages on the same port are left to their own handlers.
 */
export function isMetricDeltaMessage(message: unknown): message is MetricDeltaMessage {
  if (typeof message !== 'object' || message === null) return false;
  const { type, deltas } = message as { type?: unknown; deltas?: unknown };
  if (type !== 'vbstream-metrics' || !Array.isArray(deltas)) return false;
  return deltas.every((d: unknown) => {
    if (typeof d !== 'object' || d === null) return false;
    const delta = d as Record<string, unknown>;
    const calibration = delta.calibration as Record<string, unknown> | undefined;
    return typeof delta.model === 'string' && typeof delta.partition === 'string' && typeof delta.learned === 'number' &&
      typeof delta.rejected === 'object' && delta.rejected !== null && isHistogram(delta.updateDuration) && isHistogram(delta.minibatchSize) &&
      typeof calibration === 'object' && calibration !== null && isHistogram(calibration.negative) && isHistogram(calibration.positive);
  });
}
