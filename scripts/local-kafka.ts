import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';
import { stopProcess } from './stop-process.js';

/** The Kafka release the project runs (see scripts/kafka/pom.xml). */
export const KAFKA_VERSION = '3.9.1';

/** The repository root (this file is scripts/local-kafka.ts, or dist/scripts/local-kafka.js). */
const root = resolve(dirname(fileURLToPath(import.meta.url)), existsSync(resolve(dirname(fileURLToPath(import.meta.url)), '../package.json')) ? '..' : '../..');
const kafkaHome = join(root, '.kafka');
const libs = join(kafkaHome, 'libs');
const stateFile = join(kafkaHome, 'broker.json');

/** Authenticated listeners to open besides PLAINTEXT (for tests of SASL and TLS clients). */
export interface LocalKafkaSecurity {
  /** Users of a SASL_PLAINTEXT listener: PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 all accept them. */
  readonly users?: readonly { readonly name: string; readonly password: string }[];
  /** A PKCS12 keystore (server key and certificate for 127.0.0.1) for an SSL listener. */
  readonly keystore?: { readonly path: string; readonly password: string };
}

/** A running single-node KRaft broker on 127.0.0.1. */
export interface LocalKafka {
  readonly bootstrap: string;
  /** `127.0.0.1:port` of the SASL_PLAINTEXT listener, when users were given. */
  readonly saslBootstrap?: string;
  /** `127.0.0.1:port` of the SSL listener, when a keystore was given. */
  readonly sslBootstrap?: string;
  readonly port: number;
  readonly pid: number;
  readonly dataDir: string;
  readonly logFile: string;
  /** Stops the broker (SIGTERM, then SIGKILL after 20 s) and removes its data folder. */
  stop(): Promise<void>;
  /** Stops the broker process and keeps its data (an outage): `resume` starts it again as it was. */
  halt(): Promise<void>;
  /** Starts a halted broker again on the same ports with the same data; resolves once it accepts connections. */
  resume(): Promise<void>;
}

/**
 * Makes sure the broker's jars are in .kafka/libs: runs Maven (`dependency:copy-dependencies` on
 * scripts/kafka/pom.xml, with a project-local repository in .kafka/m2) when they are missing.
 * Throws with Maven's output when Maven fails. Returns the libs folder.
 */
export function ensureKafkaJars(): string {
  if (existsSync(join(libs, `kafka_2.13-${KAFKA_VERSION}.jar`))) return libs;
  mkdirSync(kafkaHome, { recursive: true });
  const result = spawnSync('mvn', ['-q', '-B', `-Dmaven.repo.local=${join(kafkaHome, 'm2')}`, '-f', join(root, 'scripts', 'kafka', 'pom.xml'),
    'dependency:copy-dependencies', `-DoutputDirectory=${libs}`, '-DincludeScope=runtime'], { encoding: 'utf8' });
  if (result.status !== 0 || !existsSync(join(libs, `kafka_2.13-${KAFKA_VERSION}.jar`))) {
    throw new Error(`could not fetch the Kafka ${KAFKA_VERSION} broker with Maven (exit ${result.status}):\n${result.stdout}\n${result.stderr}${result.error ? `\n${result.error.message}` : ''}`);
  }
  return libs;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolveConnect) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => { socket.destroy(); resolveConnect(true); });
    socket.once('error', () => resolveConnect(false));
  });
}

/** A fresh KRaft cluster id: 16 random bytes in base64url, not starting with '-' (the storage tool would read that as an option). */
function clusterId(): string {
  let id = randomBytes(16).toString('base64url');
  while (id.startsWith('-')) id = randomBytes(16).toString('base64url');
  return id;
}

/**
 * Fetches (once) and starts Apache Kafka in KRaft mode, one node acting as broker and controller,
 * listening on free ports on 127.0.0.1 with its data in a fresh temporary folder; formats the
 * storage, starts `kafka.Kafka`, and waits (up to `timeoutMs`) until the broker accepts
 * connections. Throws, with the broker's log, if it does not come up. `detached` keeps the broker
 * running after this process exits (for `npm run kafka:up`).
 */
export async function startLocalKafka(options: { timeoutMs?: number; detached?: boolean; security?: LocalKafkaSecurity } = {}): Promise<LocalKafka> {
  const jars = ensureKafkaJars();
  const taken = new Set<number>();
  const port = async (): Promise<number> => {
    let candidate = await freePort();
    while (taken.has(candidate)) candidate = await freePort();
    taken.add(candidate);
    return candidate;
  };
  const plainPort = await port();
  const controllerPort = await port();
  const { users = [], keystore } = options.security ?? {};
  const saslPort = users.length > 0 ? await port() : undefined;
  const sslPort = keystore === undefined ? undefined : await port();
  const dataDir = mkdtempSync(join(tmpdir(), 'vbstream-kafka-'));
  const logDir = join(dataDir, 'logs');
  mkdirSync(logDir);
  const properties = join(dataDir, 'server.properties');
  const listeners = [`PLAINTEXT://127.0.0.1:${plainPort}`, ...(saslPort === undefined ? [] : [`SASL_PLAINTEXT://127.0.0.1:${saslPort}`]), ...(sslPort === undefined ? [] : [`SSL://127.0.0.1:${sslPort}`])];
  const quoted = (text: string): string => text.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
  const security = [
    ...(saslPort === undefined ? [] : [
      'sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512',
      `listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required ${users.map((u) => `user_${u.name}="${quoted(u.password)}"`).join(' ')};`,
      'listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;',
      'listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;',
    ]),
    ...(keystore === undefined ? [] : [
      `ssl.keystore.location=${keystore.path}`, 'ssl.keystore.type=PKCS12', `ssl.keystore.password=${keystore.password}`, `ssl.key.password=${keystore.password}`, 'ssl.client.auth=none',
    ]),
  ];
  writeFileSync(properties, [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=${[...listeners, `CONTROLLER://127.0.0.1:${controllerPort}`].join(',')}`,
    `advertised.listeners=${listeners.join(',')}`,
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,CONTROLLER:PLAINTEXT',
    'inter.broker.listener.name=PLAINTEXT',
    ...security,
    `log.dirs=${join(dataDir, 'kraft')}`,
    'num.partitions=1',
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=4',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
    'auto.create.topics.enable=false',
    '',
  ].join('\n'));
  const log4j = join(dataDir, 'log4j.properties');
  writeFileSync(log4j, [
    'log4j.rootLogger=INFO, file',
    'log4j.appender.file=org.apache.log4j.FileAppender',
    `log4j.appender.file.File=${join(logDir, 'server.log')}`,
    'log4j.appender.file.layout=org.apache.log4j.PatternLayout',
    'log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n',
    '',
  ].join('\n'));
  const classpath = `${jars}/*`;
  const jvm = ['-Xms256m', '-Xmx768m', `-Dlog4j.configuration=file:${log4j}`, '-Djava.net.preferIPv4Stack=true', '-cp', classpath];
  const scram = users.flatMap((u) => ['SCRAM-SHA-256', 'SCRAM-SHA-512'].flatMap((mechanism) => ['--add-scram', `${mechanism}=[name=${u.name},password=${u.password}]`]));
  const format = spawnSync('java', [...jvm, 'kafka.tools.StorageTool', 'format', '-t', clusterId(), '-c', properties, ...scram], { encoding: 'utf8' });
  if (format.status !== 0) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`formatting KRaft storage failed (exit ${format.status}):\n${format.stdout}\n${format.stderr}`);
  }
  const logFile = join(logDir, 'stdout.log');
  const ports = [plainPort, ...(saslPort === undefined ? [] : [saslPort]), ...(sslPort === undefined ? [] : [sslPort])];
  const launch = (): Promise<number> => launchBroker([...jvm, 'kafka.Kafka', properties], { logFile, ports, timeoutMs: options.timeoutMs ?? 60_000, detached: options.detached ?? false });
  let pid: number;
  try {
    pid = await launch();
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  let halted = false;
  return {
    bootstrap: `127.0.0.1:${plainPort}`, port: plainPort, get pid() { return pid; }, dataDir, logFile,
    saslBootstrap: saslPort === undefined ? undefined : `127.0.0.1:${saslPort}`,
    sslBootstrap: sslPort === undefined ? undefined : `127.0.0.1:${sslPort}`,
    stop: () => stopProcess(pid, dataDir),
    halt: async () => {
      await stopProcess(pid);
      halted = true;
    },
    resume: async () => {
      if (!halted) throw new Error('resume: the broker is not halted');
      pid = await launch();
      halted = false;
    },
  };
}

/**
 * Starts the broker's JVM with its output appended to `logFile` and waits (up to `timeoutMs`) until
 * every listener port accepts connections; resolves to its pid. Throws, with the end of the
 * broker's logs, if it exits or does not come up in time (the process stopped then).
 */
async function launchBroker(args: string[], options: { logFile: string; ports: readonly number[]; timeoutMs: number; detached: boolean }): Promise<number> {
  const { logFile, ports } = options;
  const out = openSync(logFile, 'a');
  const child = spawn('java', args, { stdio: ['ignore', out, out], detached: options.detached });
  closeSync(out);
  if (options.detached) child.unref();
  const pid = child.pid as number;
  const deadline = Date.now() + options.timeoutMs;
  let exited = false;
  child.once('exit', () => { exited = true; });
  const up = async (): Promise<boolean> => (await Promise.all(ports.map(canConnect))).every(Boolean);
  while (!(await up())) {
    if (exited || Date.now() > deadline) {
      await stopProcess(pid);
      const tail = [logFile, join(dirname(logFile), 'server.log')].filter(existsSync).map((f) => readFileSync(f, 'utf8').split('\n').slice(-40).join('\n')).join('\n');
      throw new Error(`the Kafka broker did not start on 127.0.0.1:${ports[0]}${exited ? ' (the JVM exited)' : ''}:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return pid;
}

async function main(command: string | undefined): Promise<number> {
  if (command === 'up') {
    if (existsSync(stateFile)) {
      const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { pid: number; bootstrap: string };
      if (await canConnect(Number(state.bootstrap.split(':')[1]))) {
        process.stdout.write(`Kafka already running at ${state.bootstrap} (pid ${state.pid})\n`);
        return 0;
      }
    }
    process.stdout.write(`starting Apache Kafka ${KAFKA_VERSION} (KRaft, single node) on 127.0.0.1 ...\n`);
    const broker = await startLocalKafka({ detached: true });
    writeFileSync(stateFile, JSON.stringify({ pid: broker.pid, bootstrap: broker.bootstrap, dataDir: broker.dataDir }));
    process.stdout.write(`Kafka is up at ${broker.bootstrap} (pid ${broker.pid}, data ${broker.dataDir}); stop it with npm run kafka:down\n`);
    return 0;
  }
  if (command === 'down') {
    if (!existsSync(stateFile)) {
      process.stdout.write('no broker started by kafka:up is recorded\n');
      return 0;
    }
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { pid: number; dataDir: string };
    await stopProcess(state.pid, state.dataDir);
    rmSync(stateFile, { force: true });
    process.stdout.write(`stopped the broker (pid ${state.pid})\n`);
    return 0;
  }
  if (command === 'fetch') {
    process.stdout.write(`Kafka ${KAFKA_VERSION} jars in ${ensureKafkaJars()}\n`);
    return 0;
  }
  process.stderr.write('usage: local-kafka up | down | fetch\n');
  return 2;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv[2]).then((code) => { process.exitCode = code; }, (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
