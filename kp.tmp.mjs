import { spawnSync } from 'node:child_process';
import { startLocalKafka } from './dist/scripts/local-kafka.js';
const broker = await startLocalKafka();
try {
  for (const chunk of ['1000', '5000', '10000', '1000', '5000', '10000']) {
    const t = Date.now();
    const r = spawnSync('node', ['dist/cli/vbstream.js', 'kafka:produce', '--brokers', broker.bootstrap, '--topic', `kp-${chunk}-${t}`, '--partitions', '4', '--synthetic', '200000', '--dim', '10'], { encoding: 'utf8', env: process.env });
    console.log(chunk, r.stderr.trim().slice(0, 200), ((200000 / (Date.now() - t)) * 1000).toFixed(0), 'records/s incl. start');
  }
} finally { await broker.stop(); }
