import { writeFileSync } from 'node:fs';

/**
 * Preloaded into a process a benchmark spawns (`node --import <this module> …`): when the process
 * exits, its own resource usage (CPU time of every thread, workers included, and peak RSS) is
 * written as JSON to the file named by `VBSTREAM_EXIT_USAGE`, so the benchmark measures the child
 * exactly as users run it.
 */
const file = process.env.VBSTREAM_EXIT_USAGE;
if (file !== undefined) process.on('exit', () => writeFileSync(file, JSON.stringify(process.resourceUsage())));
