import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '@gateway/providers';
import type { DemoAccount } from './demo';
import { prepareDatabase, type GatewayOptions } from './gateway';
import { READY_MESSAGE, STOP_MESSAGE, stopOnSignals } from './stop';

export interface PrimaryOptions {
  /** How many gateway processes to run (GATEWAY_WORKERS). */
  workers: number;
  /** Each worker's shutdown timeout; the primary waits a second longer before it kills them. */
  shutdownTimeoutMs: number;
  /** The workers' own options, read from the same configuration. */
  options: GatewayOptions;
  banner(demo: DemoAccount): void;
}

/** How much longer than its workers the primary waits before it kills them. */
const PRIMARY_MARGIN_MS = 1_000;

/**
 * The primary of several gateway processes on one port (node:cluster: it accepts the connections
 * and hands them to its workers in turn). It serves nothing itself, and does what must happen once:
 * the start-up work (migrations, the demo account), and the simulated acquirer, whose ledger must be
 * one: its workers get its URL as GATEWAY_SIMULATOR_URL. On SIGTERM or SIGINT it tells every worker
 * to stop gracefully and closes the acquirer once they have all exited. A worker that dies after it
 * was ready is replaced; one that dies before stops them all (exit code 1).
 */
export async function runPrimary({ workers, shutdownTimeoutMs, options, banner }: PrimaryOptions): Promise<void> {
  const { logger } = options;
  // The acquirer starts once the key check passed: a refused start leaves no state file of it.
  let simulator: Simulator | undefined;
  const demo = await prepareDatabase(options, async () => {
    simulator = options.simulatorUrl
      ? undefined
      : await startSimulator({ host: '127.0.0.1', port: 0, stateFile: options.dataDir && join(options.dataDir, 'simulator-state.jsonl') });
    return options.simulatorUrl ?? simulator?.url ?? '';
  });
  const simulatorUrl = options.simulatorUrl ?? simulator?.url ?? '';

  let started = false;
  let stopping = false;
  let failure: string | undefined;
  const ready = new Set<Worker>();
  const running = () => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);

  const stop = async () => {
    stopping = true;
    const exits = running().map(async (worker) => {
      const exited = once(worker, 'exit') as Promise<[number | null, string | null]>;
      // One still starting has nothing to drain, and does not listen for the message yet.
      if (!ready.has(worker)) worker.process.kill('SIGTERM');
      else if (worker.isConnected()) worker.send(STOP_MESSAGE);
      const [code, signal] = await exited;
      if (code !== 0 && ready.has(worker)) failure ??= `worker ${worker.id} exited with ${signal ?? `code ${code}`}`;
    });
    await Promise.all(exits);
    await simulator?.close();
    if (failure) throw new Error(failure);
  };
  const begin = stopOnSignals(logger, shutdownTimeoutMs + PRIMARY_MARGIN_MS, stop, () =>
    running().forEach((w) => w.process.kill('SIGKILL')),
  );

  const fork = () => {
    const worker = cluster.fork({ GATEWAY_SIMULATOR_URL: simulatorUrl });
    worker.on('message', (message: { type?: string; url?: string }) => {
      if (message?.type !== READY_MESSAGE) return;
      ready.add(worker);
      if (ready.size !== workers || started) return;
      started = true;
      logger.info({ url: message.url, workers, database: 'postgres' }, 'gateway started');
      if (demo) banner(demo);
    });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      if (!ready.delete(worker)) {
        failure = `worker ${worker.id} exited during start-up (${signal ?? `code ${code}`})`;
        logger.fatal(failure);
        begin('a worker could not start');
        return;
      }
      logger.error({ worker: worker.id, code, signal }, 'a gateway worker died: starting another');
      fork();
    });
  };
  for (let i = 0; i < workers; i += 1) fork();
}
