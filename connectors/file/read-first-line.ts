import { open } from 'node:fs/promises';
import { InputError } from '../../src/core/input-error.js';

/** The first non-blank line of a text file (read in 64 KiB steps), or `undefined` for an empty file. */
export async function readFirstLine(path: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    throw new InputError(`cannot read file: ${(cause as Error).message}`, { source: path }, { cause });
  }
  try {
    const chunk = Buffer.alloc(65536);
    let text = '';
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      text += chunk.toString('utf8', 0, bytesRead);
      const lines = text.split(/\r\n|\n|\r/);
      const found = lines.slice(0, bytesRead === 0 ? lines.length : -1).find((l) => l.trim() !== '');
      if (found !== undefined) return found.replace(/^\uFEFF/, '');
      if (bytesRead === 0) return undefined;
    }
  } finally {
    await handle.close();
  }
}
