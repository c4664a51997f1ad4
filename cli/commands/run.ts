import { parseArgs } from 'node:util';
import { ConfigError } from '../../src/core/config-error.js';
import { loadPipelineConfig } from '../load-pipeline-config.js';
import type { PipelineConfig } from '../pipeline-config.js';
import { runPipeline } from '../run-pipeline.js';

/** How long the process may linger once the pipeline has ended (open sockets closing), ms. */
const EXIT_GRACE_MS = 3_000;

/** The command line's overrides of the config: the metrics port (0 = a free one) or none, a synthetic source's rate. */
function withFlags(config: PipelineConfig, flags: { 'metrics-port'?: string; 'no-metrics': boolean; rate?: string }): PipelineConfig {
  let result = config;
  if (flags['no-metrics']) {
    if (flags['metrics-port'] !== undefined) throw new ConfigError('--metrics-port and --no-metrics contradict each other', { field: 'metrics' });
    result = { ...result, metrics: false };
  } else if (flags['metrics-port'] !== undefined) {
    const port = Number(flags['metrics-port']);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ConfigError('--metrics-port must be an integer from 0 (a free port) to 65535', { field: 'metrics-port', value: flags['metrics-port'] });
    result = { ...result, metrics: { pipeline: 'default', host: '127.0.0.1', ...(result.metrics || {}), port } };
  }
  if (flags.rate !== undefined) {
    const rate = Number(flags.rate);
    if (!(rate > 0) || !Number.isFinite(rate)) throw new ConfigError('--rate must be a positive number of records per second', { field: 'rate', value: flags.rate });
    if (result.source.type !== 'synthetic') throw new ConfigError(`--rate paces a synthetic source; this pipeline reads ${result.source.type}`, { field: 'rate', value: rate });
    result = { ...result, source: { ...result.source, rate } };
  }
  return result;
}

/**
 * `vbstream run`: the pipeline declared in `--config` (see `examples/pipeline.json`), or the
 * embedded default (a synthetic logistic stream through adf-logit in a worker, snapshots to
 * ./snapshots). `--resume` restarts from the latest snapshot. SIGINT/SIGTERM stop the source,
 * drain in-flight records, write a final snapshot and exit 0; a second signal exits at once (130).
 * Metrics, /healthz and /readyz are served on 127.0.0.1 (`metrics.port`, default 9464;
 * `--metrics-port 0` picks a free one, `--no-metrics` serves none); `--rate` paces a synthetic source.
 */
export async function runCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv, strict: true,
    options: {
      config: { type: 'string' }, resume: { type: 'boolean', default: false },
      'metrics-port': { type: 'string' }, 'no-metrics': { type: 'boolean', default: false }, rate: { type: 'string' },
    },
  });
  const config = withFlags(await loadPipelineConfig(values.config), values);
  let stop: (() => void) | undefined;
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      process.stderr.write(`\n${signal} again: exiting without draining\n`);
      process.exit(130);
    }
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the source, draining in-flight records, writing a final snapshot…\n`);
    stop?.();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await runPipeline(config, {
      out: process.stdout, err: process.stderr, resume: values.resume,
      onSource: (stopSource) => {
        stop = stopSource;
        if (stopping) stopSource();
      },
    });
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    // Everything is saved or reported by now; a client still retrying a broker that is down (or a
    // worker) must not keep the process alive: exit with the code main() sets, after a grace period.
    setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
  }
  return 0;
}
