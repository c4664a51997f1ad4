import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaPort } from '../../connectors/kafka/create-kafka-port.js';
import type { KafkaConnection } from '../../connectors/kafka/kafka-connection.js';
import { startLocalKafka, type LocalKafka } from '../../scripts/local-kafka.js';
import { repoRoot } from '../helpers/reference.js';
import { PATIENCE_MS } from '../helpers/wait-for.js';
import { createTopic, produceValues, recordJson, syntheticData, unique } from './helpers.js';

const work = mkdtempSync(join(tmpdir(), 'vbstream-security-'));
const D = 3;
const N = 400;

/** `vbstream run` on a Kafka source reached with `connection` (a config file in `work`), until caught up. */
function runVbstream(source: object, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const path = join(work, `${unique('config')}.json`);
  writeFileSync(path, JSON.stringify({ source: { type: 'kafka', groupId: unique('group'), dim: D, untilCaughtUp: true, ...source }, model: { family: 'vb-linear' }, metrics: false }));
  const result = spawnSync(process.execPath, [join(repoRoot, 'dist/cli/vbstream.js'), 'run', '--config', path], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: PATIENCE_MS });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('Kafka with SASL (PLAIN, SCRAM-SHA-256/512) and TLS listeners (a real broker configured for them)', () => {
  let broker: LocalKafka;
  beforeAll(async () => {
    const keystore = join(work, 'broker.p12');
    const keytool = (args: string[]) => {
      const result = spawnSync('keytool', args, { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`keytool ${args[0]} failed: ${result.stderr}`);
    };
    keytool(['-genkeypair', '-alias', 'broker', '-keyalg', 'RSA', '-keysize', '2048', '-validity', '2', '-dname', 'CN=127.0.0.1', '-ext', 'SAN=IP:127.0.0.1',
      '-storetype', 'PKCS12', '-keystore', keystore, '-storepass', 'store-secret', '-keypass', 'store-secret']);
    keytool(['-exportcert', '-rfc', '-alias', 'broker', '-keystore', keystore, '-storepass', 'store-secret', '-file', join(work, 'ca.pem')]);
    broker = await startLocalKafka({ timeoutMs: PATIENCE_MS, security: { users: [{ name: 'alice', password: 'alice-secret' }], keystore: { path: keystore, password: 'store-secret' } } });
  });
  afterAll(async () => {
    await broker?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** A topic of N records produced over `connection`. */
  async function topicOver(connection: KafkaConnection): Promise<string> {
    const port = createKafkaPort({ ...connection, logLevel: 'nothing' });
    const admin = port.admin();
    await admin.connect();
    const topic = unique('secure');
    await createTopic(admin, topic, 2);
    await admin.disconnect();
    const data = syntheticData(N, D, 3);
    await produceValues(port, topic, Array.from({ length: N }, (_, i) => recordJson(data, i)), 2);
    return topic;
  }

  it.each(['plain', 'scram-sha-256', 'scram-sha-512'] as const)('SASL %s: a producer and `vbstream run` (password from the environment) authenticate and learn every record', async (mechanism) => {
    const brokers = [broker.saslBootstrap as string];
    const topic = await topicOver({ brokers, sasl: { mechanism, username: 'alice', password: 'alice-secret' } });
    const run = runVbstream({ brokers, topic, sasl: { mechanism, username: 'alice', passwordEnv: 'KAFKA_PASSWORD' } }, { KAFKA_PASSWORD: 'alice-secret' });
    expect(run.stderr).toBe('');
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/done: 400 records learned/);
  });

  it('SASL with a wrong password fails fast with one line naming the cause', () => {
    const run = runVbstream({ brokers: [broker.saslBootstrap as string], topic: 'unused', sasl: { mechanism: 'scram-sha-256', username: 'alice', password: 'wrong' } });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/cannot reach Kafka at .* \(.*(SASL|[Aa]uthentication).*\)/);
  });

  it('TLS with the broker\'s CA: a producer and `vbstream run` (caFile relative to the config) learn every record; without the CA the run is refused', async () => {
    const brokers = [broker.sslBootstrap as string];
    const topic = await topicOver({ brokers, ssl: { ca: readFileSync(join(work, 'ca.pem'), 'utf8') } });
    const trusted = runVbstream({ brokers, topic, ssl: { caFile: 'ca.pem' } });
    expect(trusted.stderr).toBe('');
    expect(trusted.status).toBe(0);
    expect(trusted.stdout).toMatch(/done: 400 records learned/);
    const untrusted = runVbstream({ brokers, topic, ssl: true });
    expect(untrusted.status).toBe(1);
    expect(untrusted.stderr).toMatch(/cannot reach Kafka at .*certificate/);
  });
});
