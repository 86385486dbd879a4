import { setTimeout as sleep } from 'node:timers/promises';
import { coresOver, cpuMeter } from './cpu';
import type { Gateway, Target } from './run';

/** Saved cards the rows are spread over. */
const PAYMENT_METHODS = 20;
const POLL_MS = 100;
const TIMEOUT_MS = 15 * 60_000;

type Body = Record<string, unknown>;

function client(gateway: Gateway, secretKey: string) {
  return async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Body> => {
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers: { 'x-secretkey': secretKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as Body;
  };
}

/** Rows of the unmeasured batch run first, so that V8 has optimised the batch path (a server runs for days). */
const WARMUP_ROWS = 2_000;

type Call = ReturnType<typeof client>;

/** Submits a batch of `lines` and polls it until SUCCESS (or fails): when it was answered and when it was done. */
async function runBatch(call: Call, lines: string[]) {
  const batch = ['PaymentMethodId,Amount,Currency,Reference', ...lines].join('\n');
  const submitted = performance.now();
  const created = await call('POST', '/batch/transaction/payment_method', { count: lines.length, description: 'bench', batch });
  const answered = performance.now();
  let status = created;
  while (status.status !== 'SUCCESS' && status.status !== 'FAILED') {
    if (performance.now() - submitted > TIMEOUT_MS)
      throw new Error(`the batch is still ${String(status.status)} after ${TIMEOUT_MS / 60_000} min`);
    await sleep(POLL_MS);
    status = await call('GET', `/batch/${String(created.batchId)}/status`);
  }
  if (status.status !== 'SUCCESS' || status.success !== lines.length) {
    throw new Error(`the batch ended ${String(status.status)} with ${String(status.success)} of ${lines.length} rows charged`);
  }
  return { submitted, answered, done: performance.now(), kib: batch.length / 1024 };
}

/**
 * One batch of `rows` approved AUD 10 charges over PAYMENT_METHODS saved Visa cards, after an
 * unmeasured one of WARMUP_ROWS: the time to answer the request (the whole CSV checked and
 * stored), then the rows charged per second by the gateway's worker, from the answer until the
 * batch is SUCCESS (polled every POLL_MS).
 */
export async function measureBatch(gateway: Gateway, { secretKey, providerId }: Target, rows: number): Promise<void> {
  const call = client(gateway, secretKey);
  console.log(
    `\nbatch of ${rows} rows over ${PAYMENT_METHODS} saved cards, after one of ${WARMUP_ROWS} to warm up: submitting, then waiting for SUCCESS…`,
  );
  const methods: string[] = [];
  for (let n = 0; n < PAYMENT_METHODS; n += 1) {
    const paymentInformation = { cardNumber: '4111111111111111', expiryDate: '12/30', ccv: '123', cardholder: 'Bench Payer' };
    methods.push(String((await call('POST', '/payment_method/card', { providerId, paymentInformation })).paymentMethodId));
  }
  const linesOf = (count: number, prefix: string) =>
    Array.from({ length: count }, (_, n) => `${methods[n % PAYMENT_METHODS]},10,AUD,${prefix}-${n + 1}`);
  await runBatch(call, linesOf(WARMUP_ROWS, 'warm-up'));

  const gatewayCpu = cpuMeter(gateway.child.pid);
  const acquirerCpu = cpuMeter(gateway.acquirer.pid);
  const { submitted, answered, done, kib } = await runBatch(call, linesOf(rows, 'bench'));
  const [gatewaySeconds, acquirerSeconds] = [gatewayCpu(), acquirerCpu()];

  const processing = (done - answered) / 1000;
  const total = (done - submitted) / 1000;
  console.log(`  rows/s         ${(rows / processing).toFixed(1)}  (${rows} rows charged in ${processing.toFixed(1)} s after the answer)`);
  console.log(`  answer         ${Math.round(answered - submitted)} ms  (CSV of ${kib.toFixed(0)} KiB checked and stored)`);
  console.log(`  end to end     ${(rows / total).toFixed(1)} rows/s  (${total.toFixed(1)} s)`);
  const perRow = (seconds: number | undefined) => (seconds === undefined ? 'n/a' : `${((seconds * 1000) / rows).toFixed(2)} ms`);
  console.log(`  CPU            gateway ${coresOver(gatewaySeconds, total)}, acquirer ${coresOver(acquirerSeconds, total)}`);
  console.log(`  CPU/row        gateway ${perRow(gatewaySeconds)}, acquirer ${perRow(acquirerSeconds)}  (the create included)`);
}
