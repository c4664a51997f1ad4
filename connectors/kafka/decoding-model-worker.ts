import modelWorker from '../../operators/worker/model-worker.js';
import { workerDecoders } from '../../operators/worker/worker-decoders.js';
import { RecordDecoder } from './record-decoder.js';
import type { RecordSchema } from './record-schema.js';

/** The kind of the JSON value decoder in {@link workerDecoders}; its configuration is the {@link RecordSchema}. */
workerDecoders.set('kafka-json', (schema) => new RecordDecoder(schema as RecordSchema));

/**
 * The model worker of a Kafka partition (compiled to `dist/connectors/kafka/decoding-model-worker.js`):
 * the model worker, able to decode JSON message values itself (`learn-encoded`) with the same
 * {@link RecordDecoder} the main thread uses, so the raw values cross the thread boundary instead.
 */
export default modelWorker;
