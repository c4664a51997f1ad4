/**
 * The base URL (`http://host:port/`) at which a server listening on `host` can be reached from this
 * machine: a wildcard host (0.0.0.0, ::) is shown as 127.0.0.1, an IPv6 address in brackets.
 */
export function endpointUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}/`;
}
