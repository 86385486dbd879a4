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
const MiB = 1024 * 1024;

/** Resident memory of a process (Linux /proc), in MiB. */
function rssMiB(pid: number): number {
  const kib = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kib ? Number(kib[1]) / 1024 : NaN;
}

async function metrics(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\w+)(?:\{[^}]*\})? ([\d.e+-]+|NaN)$/.exec(line);
    if (match && !values.has(match[1]!)) values.set(match[1]!, Number(match[2]));
  }
  return values;
}

async function sample(gateway: Gateway, seconds: number): Promise<Sample> {
  const m = await metrics(gateway.url);
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
 * every SAMPLE_EVERY_S seconds, must stay flat. Growth compares the median of the minute after
 * warm-up (WARM_UP_S) with the median of the last minute.
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
  const after = samples.filter((s) => s.seconds > WARM_UP_S && s.seconds <= WARM_UP_S + 60);
  const last = samples.filter((s) => s.seconds > seconds - 60);
  const growth = (pick: (s: Sample) => number) => {
    const [from, to] = [median(after.map(pick)), median(last.map(pick))];
    return `${from.toFixed(1)} → ${to.toFixed(1)} (${(100 * (to / from - 1)).toFixed(1)} %)`;
  };
  console.log(`  requests/s     ${finished.requests.average.toFixed(1)}  (${finished.requests.total} requests)`);
  console.log(`  latency (ms)   p50 ${finished.latency.p50}  p99 ${finished.latency.p99}  max ${finished.latency.max}`);
  console.log(`  after warm-up (median of minute 2 → of the last minute):`);
  console.log(`    RSS MiB              ${growth((s) => s.rssMiB)}`);
  console.log(`    heap used MiB        ${growth((s) => s.heapUsedMiB)}`);
  console.log(`    loop delay p99 ms    ${growth((s) => s.loopDelayP99Ms)}`);
  console.log(`    loop delay mean ms   ${growth((s) => s.loopDelayMeanMs)}`);
  return finished;
}
