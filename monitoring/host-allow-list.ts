import { hostname } from 'node:os';
import { isIP } from 'node:net';

const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]']);

/**
 * The names a service answers to in the `Host` header, against DNS rebinding: a page of another
 * origin whose name its owner has pointed at this machine (or at a service on its network) sends
 * that name, so a request for any other name is refused. Allowed: the bound host, `localhost`, any
 * IP address (a rebinding page can only send a name), the names in `extra`, and — bound to a
 * wildcard (0.0.0.0, ::) — this machine's host name; `*` in `extra` allows every name (when a proxy
 * in front checks them). A service reached through a DNS name (a load balancer forwarding its
 * clients' `Host`) lists that name in `extra`.
 */
export class HostAllowList {
  private readonly names: ReadonlySet<string>;
  private readonly any: boolean;

  constructor(bound: string, extra: readonly string[] = []) {
    const own = WILDCARDS.has(bound) ? hostname().toLowerCase() : isIP(bound) === 6 ? `[${bound}]` : bound.toLowerCase();
    const names = new Set([own, 'localhost', ...extra.map((name) => HostAllowList.hostOf(name))]);
    this.any = names.has('*');
    this.names = names;
  }

  /** Whether a request with this `Host` header may be served; one without (HTTP/1.0, never a browser) may. */
  allows(header: string | undefined): boolean {
    if (header === undefined || this.any) return true;
    const host = HostAllowList.hostOf(header);
    return this.names.has(host) || isIP(host.startsWith('[') ? host.slice(1, -1) : host) !== 0;
  }

  /** The host of a `Host` header value, lower-cased, without the port (`[::1]:80` → `[::1]`). */
  static hostOf(header: string): string {
    const value = header.trim().toLowerCase();
    if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1 || value.length);
    const colon = value.indexOf(':');
    return colon >= 0 && colon === value.lastIndexOf(':') ? value.slice(0, colon) : value;
  }

  /** What is allowed, as a refusal says it. */
  toString(): string {
    return this.any ? 'any host' : `${[...this.names].join(', ')} or an IP address`;
  }
}
