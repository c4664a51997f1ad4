#!/usr/bin/env node
import { VbstreamError } from '../src/core/vbstream-error.js';
import { readFileSync } from 'node:fs';
import { COMMAND_HELP, formatCommandHelp } from './command-help.js';
import { closestName } from '../src/core/closest-name.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

type Command = (argv: string[]) => number | Promise<number>;

/** Each command's module is imported only when it runs, so `--help`, `--version` and `models` load no Kafka client. */
const COMMANDS: { readonly [command: string]: () => Promise<Command> } = {
  run: async () => (await import('./commands/run.js')).runCommand,
  fit: async () => (await import('./commands/fit.js')).fitCommand,
  select: async () => (await import('./commands/select.js')).selectCommand,
  models: async () => { const { modelsCommand } = await import('./commands/models.js'); return (argv) => modelsCommand(argv); },
  'kafka:produce': async () => (await import('./commands/kafka-produce.js')).kafkaProduceCommand,
  'kafka:combine': async () => (await import('./commands/kafka-combine.js')).kafkaCombineCommand,
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  'serve:learn': async () => (await import('./commands/serve-learn.js')).serveLearnCommand,
  'bandit:learn': async () => (await import('./commands/bandit-learn.js')).banditLearnCommand,
  'bandit:decide': async () => (await import('./commands/bandit-decide.js')).banditDecideCommand,
  'bandit:evaluate': async () => { const { banditEvaluateCommand } = await import('./commands/bandit-evaluate.js'); return (argv) => banditEvaluateCommand(argv); },
};

/** One line for a command that does not exist, with the closest one. */
function unknownCommand(command: string): string {
  const near = closestName(command, Object.keys(COMMANDS));
  return `vbstream: unknown command "${command}"${near === undefined ? '' : `; did you mean "${near}"?`} (vbstream help lists them)\n`;
}

/** The flags a command's help lists (`--config`, `--no-metrics`, …). */
const flagsOf = (command: string): string[] => (COMMAND_HELP[command]?.options ?? []).map(([flag]) => flag.split(' ')[0]).filter((flag) => flag.startsWith('--'));

/** A parseArgs "Unknown option '--x'" message with the closest flag of the command. */
function withClosestFlag(message: string, command: string): string {
  const unknown = /Unknown option '(--[^']+)'/.exec(message)?.[1];
  const near = unknown === undefined ? undefined : closestName(unknown, flagsOf(command));
  return near === undefined ? message : `${message.split('\n')[0]}; did you mean ${near}?`;
}

/** A Node system error (ENOENT, EACCES, …): its own message names the call and the path. */
const isSystemError = (error: unknown): error is NodeJS.ErrnoException => error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string' && typeof (error as NodeJS.ErrnoException).code === 'string';

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
  if (command === 'help' && rest[0] !== undefined) {
    if (COMMANDS[rest[0]] === undefined) {
      process.stderr.write(unknownCommand(rest[0]));
      return 2;
    }
    process.stdout.write(formatCommandHelp(rest[0]));
    return 0;
  }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  const load = COMMANDS[command];
  if (load === undefined) {
    process.stderr.write(unknownCommand(command));
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(formatCommandHelp(command));
    return 0;
  }
  return (await load())(rest);
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    const usage = error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('ERR_PARSE_ARGS');
    const message = usage ? withClosestFlag((error as Error).message, process.argv[2] ?? '')
      : error instanceof VbstreamError || isSystemError(error) ? error.message
        : error instanceof Error ? error.stack ?? error.message : String(error);
    process.stderr.write(`vbstream ${process.argv[2] ?? ''}: ${message}\n`);
    process.exitCode = usage ? 2 : 1;
  },
);
