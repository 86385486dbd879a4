import { readFileSync } from 'node:fs';

/** User + system CPU seconds a process has used (Linux /proc); undefined elsewhere. */
export function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) " come the fields from 3 on; utime and stime are 14 and 15, in 1/100 s.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** CPU seconds over a wall-clock duration, as cores busy (1.00 = one core). */
export function coresOver(cpu: number | undefined, seconds: number): string {
  return cpu === undefined ? 'n/a' : `${(cpu / seconds).toFixed(2)} cores`;
}
