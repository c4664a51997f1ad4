import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { VbstreamError } from 'vbstream';
import { HttpError } from './http-error.js';

/** A route handler: the parsed JSON body (undefined for GET) → the JSON reply. */
export type JsonHandler = (body: unknown) => unknown;

/** Options of {@link createJsonServer}. */
export interface JsonServerOptions {
  /** Handlers by `"METHOD /path"`, e.g. `"POST /score"`. */
  readonly routes: { readonly [route: string]: JsonHandler };
  /** Largest accepted request body in bytes (default 1 MiB). */
  readonly bodyLimit?: number;
}

function readBody(request: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    if (declared > limit) {
      request.resume();
      reject(new HttpError(400, `request body of ${declared} bytes exceeds the limit of ${limit}`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      over = size > limit;
      if (over) {
        chunks.length = 0;
        reject(new HttpError(400, `request body exceeds the limit of ${limit} bytes`));
      } else chunks.push(chunk);
    });
    request.on('end', () => { if (!over) resolve(Buffer.concat(chunks).toString('utf8')); });
    request.on('error', reject);
  });
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/**
 * A small JSON-over-HTTP server on `node:http`. Each request is routed by method and path; POST
 * bodies are read up to `bodyLimit` and parsed as JSON. A body over the limit, bad JSON, or a typed
 * `VbstreamError` from the handler (bad width, non-finite value, unknown id) is answered 400
 * `{error}` naming the problem; an `HttpError` with its status; an unknown route 404; anything else 500. No request can stop the
 * server. Call `listen(port, '127.0.0.1')` on the result.
 */
export function createJsonServer(options: JsonServerOptions): Server {
  const limit = options.bodyLimit ?? 1 << 20;
  return createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const handler = options.routes[`${request.method} ${path}`];
    if (handler === undefined) {
      request.resume();
      reply(response, 404, { error: `no route ${request.method} ${path}` });
      return;
    }
    const body = request.method === 'POST' ? readBody(request, limit).then((text) => {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new HttpError(400, `body is not valid JSON: ${(error as Error).message}`);
      }
    }) : Promise.resolve(undefined);
    body.then(handler).then(
      (result) => reply(response, 200, result),
      (error: unknown) => {
        const bad = error instanceof VbstreamError && error.kind !== 'numerical' && error.kind !== 'io';
        reply(response, error instanceof HttpError ? error.status : bad ? 400 : 500, { error: (error as Error).message });
      },
    );
  });
}
