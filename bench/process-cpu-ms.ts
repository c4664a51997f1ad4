import { readFileSync } from 'node:fs';

/** CPU ms (user + system) so far of process `pid` (every thread), or of its main thread with `mainThread`, from /proc. */
export function processCpuMs(pid: number, mainThread = false): number {
  const fields = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime and stime, in clock ticks of 1/100 s
}
