/**
 * The URL (`http://host:port/` plus `path`, default none) at which a server listening on `host` can
 * be reached from this machine: a wildcard host (0.0.0.0, ::) is shown as 127.0.0.1, an IPv6 address
 * in brackets.
 */
export function endpointUrl(host: string, port: number, path = ''): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}/${path}`;
}
