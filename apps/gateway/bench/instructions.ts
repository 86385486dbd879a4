import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Counting instructions instead of time: the gateway runs under valgrind's callgrind, which counts
 * every instruction its threads execute (JIT code, GC and libuv threads included), whatever else
 * the machine is doing. Slow (about 30 times), so a run is a few hundred requests.
 */
export function callgrindWrapper(outDir: string): string[] {
  return ['valgrind', '--tool=callgrind', `--callgrind-out-file=${join(outDir, 'callgrind.%p')}`, '--dump-instr=no'];
}

/** Zeroes the counters of the process under callgrind. */
export function zeroInstructions(pid: number): void {
  execFileSync('callgrind_control', ['--zero', String(pid)], { stdio: 'ignore' });
}

/** Instructions executed since the counters were zeroed (a dump, read back). */
export function instructionsSinceZero(pid: number, outDir: string): number {
  const dumped = (name: string) => name.startsWith(`callgrind.${pid}.`);
  const before = new Set(readdirSync(outDir).filter(dumped));
  execFileSync('callgrind_control', ['--dump', String(pid)], { stdio: 'ignore' });
  const file = readdirSync(outDir).find((name) => dumped(name) && !before.has(name));
  if (!file) throw new Error(`callgrind wrote no dump in ${outDir}`);
  const totals = /^(?:totals|summary): (\d+)/m.exec(readFileSync(join(outDir, file), 'utf8'));
  if (!totals) throw new Error(`no totals in ${file}`);
  return Number(totals[1]);
}
