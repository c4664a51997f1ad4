import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';
import { stopProcess } from './stop-process.js';

/** The Apicurio Registry release the project runs (see scripts/schema-registry/pom.xml). */
export const APICURIO_VERSION = '2.1.5.Final';
/** Where Apicurio 2.x serves the Confluent Schema Registry API. */
export const CCOMPAT_PATH = '/apis/ccompat/v6';

/** The repository root (this file is scripts/local-schema-registry.ts, or dist/scripts/local-schema-registry.js). */
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, existsSync(resolve(here, '../package.json')) ? '..' : '../..');
const home = join(root, '.schema-registry');
const buildDir = join(home, 'build');
const runnerJar = join(buildDir, `apicurio-registry-${APICURIO_VERSION}-runner.jar`);
const stateFile = join(home, 'registry.json');

/** A running Confluent-compatible Schema Registry (Apicurio, in-memory storage) on 127.0.0.1. */
export interface LocalSchemaRegistry {
  /** The Confluent-compatible base URL, e.g. `http://127.0.0.1:PORT/apis/ccompat/v6`. */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** The folder holding the log; removed by `stop()`. */
  readonly dataDir: string;
  readonly logFile: string;
  /** Stops the registry (SIGTERM, then SIGKILL after 20 s); its schemas are gone with it. */
  stop(): Promise<void>;
}

/**
 * Makes sure the registry is built: runs Maven (`package` on scripts/schema-registry/pom.xml, with a
 * project-local repository in .schema-registry/m2) when the runner jar is missing. Throws with
 * Maven's output when Maven fails. Returns the path of the runner jar.
 */
export function ensureSchemaRegistry(): string {
  if (existsSync(runnerJar) && existsSync(join(buildDir, 'lib'))) return runnerJar;
  mkdirSync(home, { recursive: true });
  const result = spawnSync('mvn', ['-q', '-B', `-Dmaven.repo.local=${join(home, 'm2')}`, '-f', join(root, 'scripts', 'schema-registry', 'pom.xml'), 'package'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0 || !existsSync(runnerJar)) {
    throw new Error(`could not build Apicurio Registry ${APICURIO_VERSION} with Maven (exit ${result.status}):\n${result.stdout}\n${result.stderr}${result.error ? `\n${result.error.message}` : ''}`);
  }
  return runnerJar;
}

/** True when `GET {url}/subjects` answers 200. */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/subjects`, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * Builds (once) and starts Apicurio Registry with in-memory storage on a free port of 127.0.0.1,
 * its log in a fresh temporary folder, and waits (up to `timeoutMs`) until `GET {url}/subjects`
 * answers 200. Throws, with the log's tail, if it does not come up. `url` is the Confluent-compatible
 * base: `POST {url}/subjects/{subject}/versions` with `{"schema": "..."}` answers `{"id": N}`, and
 * `GET {url}/schemas/ids/{N}` answers `{"schema": "..."}`. `detached` keeps the registry running
 * after this process exits (for `npm run schema-registry:up`).
 */
export async function startSchemaRegistry(options: { timeoutMs?: number; detached?: boolean } = {}): Promise<LocalSchemaRegistry> {
  const jar = ensureSchemaRegistry();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'vbstream-schema-registry-'));
  const logFile = join(dataDir, 'registry.log');
  const out = openSync(logFile, 'a');
  const child = spawn('java', [
    '-Xms64m', '-Xmx512m', '-Djava.net.preferIPv4Stack=true',
    '-Dquarkus.http.host=127.0.0.1', `-Dquarkus.http.port=${port}`,
    `-Djava.io.tmpdir=${dataDir}`,
    '-jar', jar,
  ], { stdio: ['ignore', out, out], detached: options.detached ?? false, cwd: dataDir });
  if (options.detached) child.unref();
  const pid = child.pid as number;
  const url = `http://127.0.0.1:${port}${CCOMPAT_PATH}`;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let exited = false;
  child.once('exit', () => { exited = true; });
  while (!(await answers(url))) {
    if (exited || Date.now() > deadline) {
      await stopProcess(pid);
      const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n') : '';
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`the schema registry did not start on 127.0.0.1:${port}${exited ? ' (the JVM exited)' : ''}:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, port, pid, dataDir, logFile, stop: () => stopProcess(pid, dataDir) };
}

async function main(command: string | undefined): Promise<number> {
  if (command === 'up') {
    if (existsSync(stateFile)) {
      const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { pid: number; url: string };
      if (await answers(state.url)) {
        process.stdout.write(`schema registry already running at ${state.url} (pid ${state.pid})\n`);
        return 0;
      }
    }
    process.stdout.write(`starting Apicurio Registry ${APICURIO_VERSION} (in-memory, Confluent API) on 127.0.0.1 ...\n`);
    const registry = await startSchemaRegistry({ detached: true });
    writeFileSync(stateFile, JSON.stringify({ pid: registry.pid, url: registry.url, dataDir: registry.dataDir }));
    process.stdout.write(`schema registry is up at ${registry.url} (pid ${registry.pid}, log ${registry.logFile}); stop it with npm run schema-registry:down\n`);
    return 0;
  }
  if (command === 'down') {
    if (!existsSync(stateFile)) {
      process.stdout.write('no schema registry started by schema-registry:up is recorded\n');
      return 0;
    }
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { pid: number; dataDir: string };
    await stopProcess(state.pid, state.dataDir);
    rmSync(stateFile, { force: true });
    process.stdout.write(`stopped the schema registry (pid ${state.pid})\n`);
    return 0;
  }
  if (command === 'fetch') {
    process.stdout.write(`Apicurio Registry ${APICURIO_VERSION} in ${ensureSchemaRegistry()}\n`);
    return 0;
  }
  process.stderr.write('usage: local-schema-registry up | down | fetch\n');
  return 2;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv[2]).then((code) => { process.exitCode = code; }, (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
