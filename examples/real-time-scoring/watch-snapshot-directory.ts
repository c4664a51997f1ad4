import { basename } from 'node:path';
import { Observable } from 'rxjs';
import { SnapshotDirectory } from 'vbstream/files';
import type { LoadedSnapshot } from './loaded-snapshot.js';

/** Options of {@link watchSnapshotDirectory}. */
export interface WatchDirectoryOptions {
  /** Poll interval, ms (default 500). */
  readonly pollMs?: number;
  /** Refuse snapshots of another family or width (as `SnapshotDirectory.restoreLatest`). */
  readonly family?: string;
  readonly dim?: number;
  /** Told about a snapshot that could not be restored (corrupt, foreign); the previous one keeps serving. */
  readonly onError?: (error: Error) => void;
}

const sequenceOf = (path: string): number => Number(/snapshot-(\d+)\.vbsnap$/.exec(basename(path))![1]);

/**
 * The latest snapshot of a `SnapshotDirectory`, now and whenever a newer one appears: polls the
 * directory, restores the newest file fully (a model ready to serve) and only then emits it. A
 * snapshot that fails to restore is reported to `onError` and skipped until a newer one arrives;
 * a file pruned between listing and reading is retried on the next poll. Unsubscribing stops it.
 */
export function watchSnapshotDirectory(dir: string, options: WatchDirectoryOptions = {}): Observable<LoadedSnapshot> {
  const store = new SnapshotDirectory(dir);
  const pollMs = options.pollMs ?? 500;
  return new Observable<LoadedSnapshot>((subscriber) => {
    let lastSequence = 0;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const poll = async (): Promise<void> => {
      const files = await store.list();
      const newest = files[files.length - 1];
      if (newest === undefined || sequenceOf(newest) <= lastSequence) return;
      try {
        const restored = await store.restoreLatest({ family: options.family, dim: options.dim });
        if (restored === undefined || sequenceOf(restored.path) <= lastSequence) return;
        lastSequence = sequenceOf(restored.path);
        if (!stopped) subscriber.next({ model: restored.model, event: restored.event, origin: restored.path, sequence: lastSequence });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        lastSequence = sequenceOf(newest);
        options.onError?.(error as Error);
      }
    };
    const loop = (): void => {
      poll().catch((error: Error) => options.onError?.(error)).finally(() => { if (!stopped) timer = setTimeout(loop, pollMs); });
    };
    loop();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  });
}
