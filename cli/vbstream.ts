#!/usr/bin/env node
import { VbstreamError } from '../src/core/vbstream-error.js';
import { FIT_USAGE, fitCommand } from './commands/fit.js';
import { KAFKA_COMBINE_USAGE, kafkaCombineCommand } from './commands/kafka-combine.js';
import { KAFKA_PRODUCE_USAGE, kafkaProduceCommand } from './commands/kafka-produce.js';
import { RUN_USAGE, runCommand } from './commands/run.js';

const USAGE = `vbstream — online Bayesian learning over data streams

commands:
  fit             fit a model on a CSV file, write the posterior (and predictions) as JSON
  run             run a streaming pipeline from a config file, or the embedded default (npm start)
  kafka:produce   write a CSV/JSON-lines file or a synthetic stream to a Kafka topic
  kafka:combine   merge the per-partition posteriors of a Kafka-fed model into model/global

${FIT_USAGE}
${RUN_USAGE}
${KAFKA_PRODUCE_USAGE}
${KAFKA_COMBINE_USAGE}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === 'fit') return fitCommand(rest);
  if (command === 'run') return runCommand(rest);
  if (command === 'kafka:produce') return kafkaProduceCommand(rest);
  if (command === 'kafka:combine') return kafkaCombineCommand(rest);
  process.stderr.write(`vbstream: unknown command "${command}"\n${USAGE}\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    const usage = error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('ERR_PARSE_ARGS');
    const message = error instanceof VbstreamError || usage ? (error as Error).message : (error instanceof Error ? error.stack ?? error.message : String(error));
    process.stderr.write(`vbstream ${process.argv[2] ?? ''}: ${message}\n`);
    process.exitCode = usage ? 2 : 1;
  },
);
