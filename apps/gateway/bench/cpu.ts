import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat from the third on (after "pid (comm) "); undefined when unreadable. */
function statFields(pid: number | string | undefined): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** User + system CPU seconds a process has used (Linux /proc); undefined elsewhere. */
export function cpuSeconds(pid: number | undefined): number | undefined {
  const fields = statFields(pid);
  // utime and stime are fields 14 and 15, in 1/100 s.
  return fields && (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The processes whose parent is `pid` (Linux /proc; none elsewhere). */
export function childProcessIds(pid: number): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  // The parent's pid is field 4.
  return names.filter((name) => Number(statFields(name)?.[1]) === pid).map(Number);
}

/** CPU seconds over a wall-clock duration, as cores busy (1.00 = one core). */
export function coresOver(cpu: number | undefined, seconds: number): string {
  return cpu === undefined ? 'n/a' : `${(cpu / seconds).toFixed(2)} cores`;
}
