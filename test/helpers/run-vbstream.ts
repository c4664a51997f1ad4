import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './reference.js';

/** What a `vbstream` run printed: `stderr` without the progress lines of a long fit, which are in `progress`. */
export interface VbstreamRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly progress: string[];
}

const PROGRESS = /^fitting \S+ on [\d,]+ records × \d+ features … \d+ s$/;

/** Runs the compiled CLI (`dist/cli/vbstream.js`) with `args` and waits for it. */
export function runVbstream(...args: string[]): VbstreamRun {
  const result = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli', 'vbstream.js'), ...args], { encoding: 'utf8' });
  const lines = result.stderr.split('\n');
  return {
    code: result.status, stdout: result.stdout,
    stderr: lines.filter((line) => !PROGRESS.test(line)).join('\n'),
    progress: lines.filter((line) => PROGRESS.test(line)),
  };
}
