// The simulated acquirer in a process of its own, for the benchmarks: its CPU is measured apart from
// the gateway's. Prints its URL as the first line on stdout, then serves until SIGTERM or SIGINT.
import { startSimulator } from '@gateway/providers';

const simulator = await startSimulator({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${simulator.url}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void simulator.close().finally(() => process.exit(0)));
}
