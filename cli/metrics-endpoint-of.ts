import { ConfigError } from '../src/core/config-error.js';
import { numberFlag } from './number-flag.js';

/** Where a service command serves its metrics, or undefined with `--no-metrics`. */
export interface MetricsEndpoint {
  readonly host: string;
  readonly port: number;
  /** Names the endpoint answers to besides its defaults (the host, localhost, IP addresses). */
  readonly allowedHosts?: readonly string[];
}

/**
 * The metrics endpoint of the flags `--metrics-port` (default `port`; 0 picks a free one),
 * `--metrics-host` (default 127.0.0.1), `--metrics-allowed-hosts` (comma-separated) and `--no-metrics`.
 */
export function metricsEndpointOf(flags: { readonly 'metrics-port'?: string; readonly 'metrics-host'?: string; readonly 'metrics-allowed-hosts'?: string; readonly 'no-metrics'?: boolean }, port: number): MetricsEndpoint | undefined {
  if (flags['no-metrics'] === true) {
    if (flags['metrics-port'] !== undefined || flags['metrics-host'] !== undefined || flags['metrics-allowed-hosts'] !== undefined) {
      throw new ConfigError('--metrics-port/--metrics-host/--metrics-allowed-hosts and --no-metrics contradict each other', { field: 'metrics' });
    }
    return undefined;
  }
  const chosen = numberFlag('--metrics-port', flags['metrics-port'], port);
  if (chosen > 65_535) throw new ConfigError('--metrics-port must be an integer from 0 (a free port) to 65535', { field: '--metrics-port', value: flags['metrics-port'] });
  return { host: flags['metrics-host'] ?? '127.0.0.1', port: chosen, allowedHosts: flags['metrics-allowed-hosts']?.split(',') };
}
