import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killIfRunning } from '../../helpers/kill-if-running.js';
import { repoRoot } from '../../helpers/reference.js';

let child: ChildProcess | undefined;
afterEach(async () => {
  await killIfRunning(child);
  child = undefined;
});

/**
 * A process whose main loop is `serveUntilSignal` (dist/connectors/kafka/serve-until-signal.js)
 * over a service whose `stop` does `stop` (`resolve`, `reject` or `hang`) and whose `close` prints
 * `closed`; it prints `started` and, on the first signal, `stopping`.
 */
function serve(stop: 'resolve' | 'reject' | 'hang', shutdownTimeoutMs: number): { output: () => { stdout: string; stderr: string }; exited: Promise<[number | null, NodeJS.Signals | null]>; started: Promise<void>; stopping: Promise<void> } {
  const module = join(repoRoot, 'dist', 'connectors', 'kafka', 'serve-until-signal.js');
  const script = `
    import { serveUntilSignal } from ${JSON.stringify(module)};
    let alive; // what keeps a service process running: its connections; here a timer, which stop ends
    const stops = { resolve: async () => clearInterval(alive), reject: async () => { clearInterval(alive); throw new Error('the final snapshot was refused'); }, hang: () => new Promise(() => undefined) };
    const service = { start: async () => { alive = setInterval(() => undefined, 1000); process.stdout.write('started\\n'); }, stop: stops[${JSON.stringify(stop)}] };
    const code = await serveUntilSignal(service, 'test service', async () => { process.stdout.write('closed\\n'); }, {
      shutdownTimeoutMs: ${shutdownTimeoutMs}, stopping: 'writing the final snapshot', onSignal: () => process.stdout.write('stopping\\n'),
    });
    process.exitCode = code;
  `;
  const spawned = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  child = spawned;
  let stdout = '';
  let stderr = '';
  const line = (text: string): Promise<void> => new Promise((resolve) => {
    const check = (): void => { if (stdout.includes(`${text}\n`)) resolve(); };
    spawned.stdout.on('data', check);
    check();
  });
  spawned.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  spawned.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  return { output: () => ({ stdout, stderr }), exited: once(spawned, 'exit') as Promise<[number | null, NodeJS.Signals | null]>, started: line('started'), stopping: line('stopping') };
}

describe('serveUntilSignal: the shutdown of a service process (issue 26, item 12)', () => {
  it('SIGTERM stops, closes and exits 0', async () => {
    const run = serve('resolve', 5_000);
    await run.started;
    child!.kill('SIGTERM');
    expect(await run.exited).toEqual([0, null]);
    expect(run.output()).toEqual({ stdout: 'started\nstopping\nclosed\n', stderr: '' });
  });

  it('a stop that fails still closes, and exits 1 with one stderr line naming what failed', async () => {
    const run = serve('reject', 5_000);
    await run.started;
    child!.kill('SIGTERM');
    expect(await run.exited).toEqual([1, null]);
    expect(run.output()).toEqual({ stdout: 'started\nstopping\nclosed\n', stderr: 'test service: shutdown failed: writing the final snapshot: the final snapshot was refused\n' });
  });

  it('a stop that never ends: exit 1 at the deadline with one stderr line naming the step', async () => {
    const run = serve('hang', 500);
    await run.started;
    child!.kill('SIGTERM');
    expect(await run.exited).toEqual([1, null]);
    expect(run.output().stderr).toBe('test service: shutdown did not finish within 500 ms (still writing the final snapshot); exiting\n');
  });

  it('a second SIGTERM or SIGINT during the shutdown exits 130 at once', async () => {
    const run = serve('hang', 60_000);
    await run.started;
    child!.kill('SIGTERM');
    await run.stopping;
    child!.kill('SIGINT');
    expect(await run.exited).toEqual([130, null]);
    expect(run.output().stderr).toBe('test service: SIGINT again: exiting without finishing the shutdown\n');
  });
});
