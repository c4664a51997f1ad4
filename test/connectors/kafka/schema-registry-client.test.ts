import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaRegistryClient } from '../../../connectors/kafka/schema-registry-client.js';

/** A registry on loopback that knows schema id 1 and counts the requests per path. */
const requests = new Map<string, number>();
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    requests.set(request.url ?? '', (requests.get(request.url ?? '') ?? 0) + 1);
    if (request.url === '/schemas/ids/1') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ schema: '"double"' }));
    } else {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error_code":40403}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('SchemaRegistryClient', () => {
  it('keeps a schema it found for good, but no answer for an id it did not find (the decoder keeps a bounded set of those)', async () => {
    const client = new SchemaRegistryClient({ url });
    expect(await client.schemaById(1)).toBe('"double"');
    expect(await client.schemaById(1)).toBe('"double"');
    expect(requests.get('/schemas/ids/1')).toBe(1);
    for (let id = 100; id < 110; id++) expect(await client.schemaById(id)).toBeUndefined();
    expect(await client.schemaById(100)).toBeUndefined();
    expect(requests.get('/schemas/ids/100')).toBe(2);
  });
});
