/** The URL a client on this machine reaches `path` of a server bound to `host:port` at (a wildcard host is reached at 127.0.0.1; IPv6 bracketed). */
export function endpointUrl(host: string, port: number, path: string): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${reachable}:${port}${path}`;
}
