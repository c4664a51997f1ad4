import { ConfigError } from '../../src/core/config-error.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import type { SchemaRegistry } from './schema-registry.js';

/** How to reach a Confluent-compatible Schema Registry. */
export interface SchemaRegistryClientOptions {
  /** Base URL of the Confluent API, e.g. `http://127.0.0.1:8081` (Apicurio: `…/apis/ccompat/v7`). */
  readonly url: string;
  /** HTTP basic authentication. */
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  /** Per request; default 10 s. */
  readonly timeoutMs?: number | undefined;
}

/**
 * A client of the Confluent Schema Registry REST API (`GET /schemas/ids/{id}`,
 * `POST /subjects/{subject}/versions`). Schemas by id are immutable, so each one found is fetched
 * once and cached for the life of the client (requests for the same id in flight are shared). An
 * unknown id is `undefined` and is not cached here: ids come from the records, so a cache of misses
 * must be bounded, and the caller keeps one (`AvroRecordDecoder` remembers the last 1,024). An
 * unreachable registry or a 5xx is a retriable {@link VbstreamError}.
 */
export class SchemaRegistryClient implements SchemaRegistry {
  private readonly cache = new Map<number, Promise<string | undefined>>();
  private readonly base: string;

  constructor(private readonly options: SchemaRegistryClientOptions) {
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      throw new ConfigError('schema registry url is not a URL', { field: 'url', value: options.url });
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError('schema registry url must be http or https', { field: 'url', value: options.url });
    this.base = options.url.replace(/\/+$/, '');
  }

  schemaById(id: number): Promise<string | undefined> {
    let known = this.cache.get(id);
    if (known === undefined) {
      known = this.request('GET', `/schemas/ids/${id}`).then((body) => (body === undefined ? undefined : String((body as { schema: unknown }).schema)));
      this.cache.set(id, known);
      known.then((text) => { if (text === undefined) this.cache.delete(id); }, () => this.cache.delete(id));
    }
    return known;
  }

  /** Registers `schema` (Avro JSON text) under `subject` and returns its id (the existing id when already registered). */
  async register(subject: string, schema: string): Promise<number> {
    const body = await this.request('POST', `/subjects/${encodeURIComponent(subject)}/versions`, { schemaType: 'AVRO', schema });
    if (body === undefined) throw new VbstreamError('config', `schema registry has no subject endpoint at ${this.base}`, { field: 'url', value: this.base }, false);
    const id = (body as { id: unknown }).id;
    if (typeof id !== 'number') throw new VbstreamError('config', `schema registry answered without an id: ${JSON.stringify(body)}`, { field: 'url', value: this.base }, false);
    this.cache.set(id, Promise.resolve(schema));
    return id;
  }

  private async request(method: 'GET' | 'POST', path: string, body?: object): Promise<unknown> {
    const headers: { [name: string]: string } = { accept: 'application/vnd.schemaregistry.v1+json, application/json' };
    if (body !== undefined) headers['content-type'] = 'application/vnd.schemaregistry.v1+json';
    if (this.options.username !== undefined) headers.authorization = `Basic ${Buffer.from(`${this.options.username}:${this.options.password ?? ''}`).toString('base64')}`;
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000) });
    } catch (cause) {
      throw new VbstreamError('io', `schema registry ${this.base} cannot be reached: ${(cause as Error).message}`, { field: 'url', value: this.base }, true, { cause });
    }
    if (response.status === 404) return undefined;
    const text = await response.text();
    if (!response.ok) {
      throw new VbstreamError(response.status >= 500 ? 'io' : 'config', `schema registry ${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`, { field: 'url', value: this.base }, response.status >= 500);
    }
    return JSON.parse(text) as unknown;
  }
}
