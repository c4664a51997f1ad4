import { expect } from 'vitest';

/** The error `run` throws (a test failure if it returns), to look at more than its message. */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return expect.unreachable('expected a throw');
}
