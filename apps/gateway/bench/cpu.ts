import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after "pid (comm) ", numbered from 3 as in proc(5); undefined when gone. */
function statOf(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Processes whose parent is one of `roots`, and theirs, and so on (Linux /proc). */
function descendants(roots: number[]): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    const ppid = Number.isInteger(pid) ? Number(statOf(pid)?.[1]) : NaN;
    if (Number.isInteger(ppid)) parents.set(pid, ppid);
  }
  const found = new Set(roots);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (!found.has(pid) && found.has(ppid)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  return [...found];
}

/**
 * User + system CPU seconds used by a process and every process below it (several gateway workers
 * count as one gateway), including children that have ended and been waited for; undefined when the
 * process is gone or there is no /proc.
 */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined || !statOf(pid)) return undefined;
  let ticks = 0;
  for (const each of descendants([pid])) {
    // utime, stime, cutime, cstime: fields 14–17, in 1/100 s.
    const fields = statOf(each);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks / 100;
}

/** CPU seconds over a wall-clock duration, as cores busy (1.00 = one core). */
export function coresOver(cpu: number | undefined, seconds: number): string {
  return cpu === undefined ? 'n/a' : `${(cpu / seconds).toFixed(2)} cores`;
}

/** CPU seconds a process (and its children) used since this call, read when the returned function is called. */
export function cpuMeter(pid: number | undefined): () => number | undefined {
  const before = cpuSeconds(pid);
  return () => {
    const after = cpuSeconds(pid);
    return before === undefined || after === undefined ? undefined : after - before;
  };
}
