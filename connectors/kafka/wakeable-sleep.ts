/** Resolves after `ms`, or once `waker.wake()` is called (it is set while the sleep lasts), whichever comes first. */
export function wakeableSleep(ms: number, waker: { wake?: () => void }): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      waker.wake = undefined;
      resolve();
    }
    waker.wake = done;
  });
}
