import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/** Whether the process has exited within `ms` (polled every 100 ms). */
export function waitForExit(child: ChildProcess | number, ms: number): Promise<boolean> {
  const pid = typeof child === 'number' ? child : child.pid;
  return new Promise((resolveExit) => {
    const deadline = Date.now() + ms;
    const poll = (): void => {
      try {
        process.kill(pid as number, 0);
      } catch {
        resolveExit(true);
        return;
      }
      if (Date.now() > deadline) resolveExit(false);
      else setTimeout(poll, 100);
    };
    poll();
  });
}

/** Stops a local server: SIGTERM, SIGKILL after 20 s, then removes its data folder (if any). */
export async function stopProcess(pid: number, dataDir?: string): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
    return;
  }
  if (!(await waitForExit(pid, 20_000))) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
    await waitForExit(pid, 5_000);
  }
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
}
