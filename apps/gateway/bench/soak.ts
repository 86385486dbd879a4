import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type autocannon from 'autocannon';
import type { Gateway } from './run';

/** One reading of the gateway while it is loaded. */
interface Sample {
  seconds: number;
  rssMiB: number;
  heapUsedMiB: number;
  /** Event-loop delay since the previous reading (prom-client resets its histogram at each scrape). */
  loopDelayP99Ms: number;
  loopDelayMeanMs: number;
}

const SAMPLE_EVERY_S = 10;
const WARM_UP_S = 60;
/** The stretches compared: long enough to hold a major collection. */
const WINDOW_S = 120;
const MiB = 1024 * 1024;

/** Resident memory of a process (Linux /proc), in MiB. */
function rssMiB(pid: number): number {
  const kib = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kib ? Number(kib[1]) / 1024 : NaN;
}

async function metrics(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(url)).text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\w+)(?:\{[^}]*\})? ([\d.e+-]+|NaN)$/.exec(line);
    if (match && !values.has(match[1]!)) values.set(match[1]!, Number(match[2]));
  }
  return values;
}

async function sample(gateway: Gateway, seconds: number): Promise<Sample> {
  const m = await metrics(gateway.metricsUrl);
  return {
    seconds,
    rssMiB: rssMiB(gateway.child.pid!),
    heapUsedMiB: (m.get('nodejs_heap_size_used_bytes') ?? NaN) / MiB,
    loopDelayP99Ms: (m.get('nodejs_eventloop_lag_p99_seconds') ?? NaN) * 1000,
    loopDelayMeanMs: (m.get('nodejs_eventloop_lag_mean_seconds') ?? NaN) * 1000,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
};

/**
 * A long run at a fixed rate (BENCH_ONLY=soak): the gateway's memory and event-loop delay, read
 * every SAMPLE_EVERY_S seconds, must stay flat. Growth compares the two minutes after warm-up
 * (WARM_UP_S) with the last two minutes: memory by its lowest reading (the heap saws up and down
 * between major collections, a minute or more apart; what a leak raises is the floor), the delay
 * by its median.
 */
export async function soak(
  gateway: Gateway,
  options: autocannon.Options,
  run: (options: autocannon.Options) => Promise<autocannon.Result>,
  { rate, seconds }: { rate: number; seconds: number },
): Promise<autocannon.Result> {
  console.log(`\nsoak: ${rate} requests/s for ${seconds} s, a reading every ${SAMPLE_EVERY_S} s…`);
  const samples: Sample[] = [];
  const started = performance.now();
  const result = run({ ...options, overallRate: rate, duration: seconds });
  let done = false;
  void result.finally(() => (done = true)).catch(() => undefined);
  for (let n = 1; !done; n += 1) {
    await Promise.race([sleep(Math.max(0, started + n * SAMPLE_EVERY_S * 1000 - performance.now())), result.catch(() => undefined)]);
    if (done) break;
    const reading = await sample(gateway, Math.round((performance.now() - started) / 1000));
    samples.push(reading);
    console.log(
      `  ${String(reading.seconds).padStart(4)} s  RSS ${reading.rssMiB.toFixed(1)} MiB  heap ${reading.heapUsedMiB.toFixed(1)} MiB  ` +
        `loop delay p99 ${reading.loopDelayP99Ms.toFixed(1)} ms, mean ${reading.loopDelayMeanMs.toFixed(1)} ms`,
    );
  }
  const finished = await result;
  const after = samples.filter((s) => s.seconds > WARM_UP_S && s.seconds <= WARM_UP_S + WINDOW_S);
  const last = samples.filter((s) => s.seconds > seconds - WINDOW_S);
  const lowest = (values: number[]) => Math.min(...values);
  const growth = (pick: (s: Sample) => number, summary: (values: number[]) => number) => {
    const [from, to] = [summary(after.map(pick)), summary(last.map(pick))];
    return `${from.toFixed(1)} → ${to.toFixed(1)} (${(100 * (to / from - 1)).toFixed(1)} %)`;
  };
  console.log(`  requests/s     ${finished.requests.average.toFixed(1)}  (${finished.requests.total} requests)`);
  console.log(`  latency (ms)   p50 ${finished.latency.p50}  p99 ${finished.latency.p99}  max ${finished.latency.max}`);
  console.log(`  the ${WINDOW_S / 60} minutes after warm-up → the last ${WINDOW_S / 60} minutes:`);
  console.log(`    RSS MiB, lowest            ${growth((s) => s.rssMiB, lowest)}`);
  console.log(`    heap used MiB, lowest      ${growth((s) => s.heapUsedMiB, lowest)}`);
  console.log(`    loop delay p99 ms, median  ${growth((s) => s.loopDelayP99Ms, median)}`);
  console.log(`    loop delay mean ms, median ${growth((s) => s.loopDelayMeanMs, median)}`);
  return finished;
}
