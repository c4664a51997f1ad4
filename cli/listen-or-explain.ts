import { ConfigError } from '../src/core/config-error.js';

/** `listen()`, with a port in use or not allowed turned into a `ConfigError` that says which flag to change. */
export async function listenOrExplain(listen: () => Promise<number>, host: string, port: number, flag: string): Promise<number> {
  try {
    return await listen();
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES' && code !== 'EADDRNOTAVAIL') throw cause;
    throw new ConfigError(`cannot listen on ${host}:${port} (${code}): choose another with ${flag} (0 picks a free port)`, { field: flag, value: port }, { cause });
  }
}
