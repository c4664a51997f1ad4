import type { PortOutgoingMessage } from '../connectors/kafka/kafka-port.js';
import { fitsOneRequest, produceSlices } from '../connectors/kafka/produce-slices.js';
import { medianCpuMs } from './measure.js';

/**
 * What the platformatic producer's question "does this send fit one request?" costs per send of
 * 1,000 records of about 100 bytes (keyed, as `vbstream run` writes scores and dead letters): cutting the send into
 * slices and counting them (`produceSlices`, which allocates the slice arrays) against counting
 * bytes (`fitsOneRequest`, nothing allocated). Median CPU time of 2,000 sends, both in this process.
 */
const N = 1_000;
const SENDS = 2_000;
const messages: PortOutgoingMessage[] = Array.from({ length: N }, (_, i) => ({ key: `key-${i}`, value: Buffer.alloc(100, i) }));
let fits = 0;
const sliced = medianCpuMs(() => {
  for (let s = 0; s < SENDS; s++) if (produceSlices(messages).length === 1) fits++;
});
const counted = medianCpuMs(() => {
  for (let s = 0; s < SENDS; s++) if (fitsOneRequest(messages)) fits++;
});
const perSendUs = (ms: number): number => (ms * 1000) / SENDS;
process.stdout.write(`does a send of ${N.toLocaleString('en-US')} records fit one produce request (CPU per send, median of 5 × ${SENDS.toLocaleString('en-US')}; ${fits} answers yes):\n`);
process.stdout.write(`  produceSlices(messages).length === 1: ${perSendUs(sliced).toFixed(2)} µs\n`);
process.stdout.write(`  fitsOneRequest(messages):             ${perSendUs(counted).toFixed(2)} µs (${(sliced / counted).toFixed(2)}× less)\n`);
