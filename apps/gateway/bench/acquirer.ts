import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SIMULATOR_TS = fileURLToPath(new URL('./simulator.ts', import.meta.url));
const GATEWAY_DIR = fileURLToPath(new URL('..', import.meta.url));

export interface ChildAcquirer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** The simulated acquirer in a child process of its own (bench/simulator.ts), so that its CPU is counted apart. */
export async function startChildAcquirer(): Promise<ChildAcquirer> {
  // `--import tsx` resolves from the working directory: this package has tsx.
  const child = spawn(process.execPath, ['--import', 'tsx', SIMULATOR_TS], { cwd: GATEWAY_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  const [url] = (await Promise.race([once(lines, 'line'), exited.then(() => [undefined])])) as [string | undefined];
  lines.close();
  child.stdout!.resume();
  if (!url?.startsWith('http')) throw new Error('the simulated acquirer did not start');
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
