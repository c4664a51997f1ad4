#!/usr/bin/env node
import { VbstreamError } from '../src/core/vbstream-error.js';
import { readFileSync } from 'node:fs';
import { COMMAND_HELP, formatCommandHelp } from './command-help.js';
import { banditDecideCommand } from './commands/bandit-decide.js';
import { banditEvaluateCommand } from './commands/bandit-evaluate.js';
import { banditLearnCommand } from './commands/bandit-learn.js';
import { fitCommand } from './commands/fit.js';
import { kafkaCombineCommand } from './commands/kafka-combine.js';
import { kafkaProduceCommand } from './commands/kafka-produce.js';
import { modelsCommand } from './commands/models.js';
import { runCommand } from './commands/run.js';
import { selectCommand } from './commands/select.js';
import { serveCommand } from './commands/serve.js';
import { serveLearnCommand } from './commands/serve-learn.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const COMMANDS: { readonly [command: string]: (argv: string[]) => number | Promise<number> } = {
  run: runCommand,
  fit: fitCommand,
  select: selectCommand,
  models: (argv) => modelsCommand(argv),
  'kafka:produce': kafkaProduceCommand,
  'kafka:combine': kafkaCombineCommand,
  serve: serveCommand,
  'serve:learn': serveLearnCommand,
  'bandit:learn': banditLearnCommand,
  'bandit:decide': banditDecideCommand,
  'bandit:evaluate': (argv) => banditEvaluateCommand(argv),
};

const width = Math.max(...Object.keys(COMMAND_HELP).map((command) => command.length));
const USAGE = `vbstream ${VERSION} — online Bayesian learning over data streams

usage: vbstream <command> [options]

commands:
${Object.entries(COMMAND_HELP).map(([command, help]) => `  ${command.padEnd(width)}  ${help.summary}`).join('\n')}

  vbstream <command> --help   usage, options, defaults and an example
  vbstream --version          the version

example:
  vbstream run --config pipeline.json`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (command === 'help' && rest[0] !== undefined && COMMANDS[rest[0]] !== undefined) {
    process.stdout.write(formatCommandHelp(rest[0]));
    return 0;
  }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  const run = COMMANDS[command];
  if (run === undefined) {
    process.stderr.write(`vbstream: unknown command "${command}"\n\n${USAGE}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(formatCommandHelp(command));
    return 0;
  }
  return run(rest);
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
