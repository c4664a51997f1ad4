import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** SIGKILLs `child` if it has not exited yet, and resolves once it has (a test's teardown). */
export async function killIfRunning(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
