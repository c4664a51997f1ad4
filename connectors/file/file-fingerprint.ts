import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

/** Bytes of a file's start that identify it. */
const FINGERPRINT_BYTES = 65_536;

/**
 * A file's content identity for resume positions: `file:` and the first 16 hex digits of the
 * SHA-256 of its first 64 KiB. It survives moving or renaming the file and appending to it (a
 * growing log), and changes when the data at its start change — so a snapshot's position is only
 * applied to the data it was taken on.
 */
export async function fileFingerprint(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(FINGERPRINT_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, FINGERPRINT_BYTES, 0);
    return `file:${createHash('sha256').update(buffer.subarray(0, bytesRead)).digest('hex').slice(0, 16)}`;
  } finally {
    await handle.close();
  }
}
