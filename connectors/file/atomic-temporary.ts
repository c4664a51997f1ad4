import { basename, dirname, join } from 'node:path';

const TEMPORARY = /^\.(.+)\.(\d+)\.(\d+)\.tmp$/;

/** Whether a process with this id runs (one of another user counts). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The temporary files of `writeFileAtomic`: `.<name>.<pid>.<epoch ms>.tmp` beside the file `<name>`
 * they become, so that one a killed writer left behind can be told from one being written.
 */
export const atomicTemporary = {
  /** The temporary path this process writes `path` through now. */
  pathFor(path: string): string {
    return join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  },

  /**
   * Whether `name` is the temporary file of a write to a file whose name matches `target` that can
   * never finish: its writer process is gone, or it carries this process's id with a time before this
   * process started (the id of a killed writer, reused after a restart). A live writer's file is never stale.
   */
  isStale(name: string, target: RegExp): boolean {
    const match = TEMPORARY.exec(name);
    if (match === null || !target.test(match[1])) return false;
    const pid = Number(match[2]);
    if (pid === process.pid) return Number(match[3]) < performance.timeOrigin;
    return !running(pid);
  },
};
