import { connect, type Socket } from 'node:net';

/** What a server sent back on one raw connection: the final (non-1xx) status, if any, and the bytes (latin-1). */
export interface RawAnswer {
  readonly status: number | undefined;
  readonly text: string;
}

/** Opens a connection to 127.0.0.1:`port` and resolves once it is connected. */
export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * The first final answer `socket` receives — once its headers and `Content-Length` bytes of body
 * are in (just the headers without a length: a chunked body, an event stream) — or everything up to
 * the server closing the connection; an error counts as the close.
 */
export function readAnswer(socket: Socket): Promise<RawAnswer> {
  return new Promise((resolve) => {
    let text = '';
    const done = (): void => {
      socket.destroy();
      const status = [...text.matchAll(/^HTTP\/1\.[01] (\d{3})/gm)].map((m) => Number(m[1])).find((s) => s >= 200);
      resolve({ status, text });
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const final = /^HTTP\/1\.[01] [2-5]\d\d /m.exec(text);
      const end = final === null ? -1 : text.indexOf('\r\n\r\n', final.index);
      if (final === null || end < 0) return;
      const length = /^content-length: *(\d+)\r$/im.exec(text.slice(final.index, end + 2));
      if (length === null || text.length - end - 4 >= Number(length[1])) done();
    });
    socket.once('error', () => undefined);
    socket.once('close', done);
  });
}

/** Writes `bytes` on a fresh connection (leaving it open, as a client waiting for its answer does) and reads the answer ({@link readAnswer}). */
export async function rawRequest(port: number, bytes: string | Buffer): Promise<RawAnswer> {
  const socket = await openSocket(port);
  const answer = readAnswer(socket);
  socket.write(bytes);
  return answer;
}
