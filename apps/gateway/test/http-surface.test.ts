import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, startTestGateway, type TestAccount, type TestGateway } from './harness';

/** What every answer's headers say, where metrics are served, and how tRPC labels API errors. */
let t: TestGateway;
let a: TestAccount;

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t);
});
afterAll(() => t.close());

describe('HTTP surface', () => {
  it('marks every answer Cache-Control: no-store, success or error, REST or tRPC', async () => {
    const answers = await Promise.all([
      fetch(`${t.url}/charge`, { headers: { 'x-secretkey': a.secretKey } }),
      fetch(`${t.url}/charge/no-such-charge`, { headers: { 'x-secretkey': a.secretKey } }),
      fetch(`${t.url}/charge`),
      fetch(`${t.url}/health`),
      fetch(`${t.url}/openapi.json`),
      fetch(`${t.url}/trpc/staff.me`),
      fetch(`${t.url}/no/such/path`),
    ]);
    for (const answer of answers) expect(answer.headers.get('cache-control'), answer.url).toBe('no-store');
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 401, 200, 200, 401, 404]);
  });

  it('answers headers too large for the HTTP parser with the API error body', async () => {
    const response = await fetch(`${t.url}/charge?reference=${'x'.repeat(20_000)}`, { headers: { 'x-secretkey': a.secretKey } });
    expect(response.status).toBe(431);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toMatchObject({
      code: 90,
      message: 'The request line and headers are larger than 16 KB',
      isRetryable: false,
    });
  });

  it('serves /metrics on a port of its own, not on the API port', async () => {
    expect((await fetch(`${t.url}/metrics`)).status).toBe(404);
    const metricsUrl = t.gateway.metricsUrl ?? '';
    expect(new URL(metricsUrl).hostname).toBe('127.0.0.1');
    expect(new URL(metricsUrl).port).not.toBe(new URL(t.url).port);
    const metrics = await fetch(metricsUrl);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('cache-control')).toBe('no-store');
    expect(await metrics.text()).toMatch(/gateway_http_requests_total\{method="GET",route="\/charge",status="200"\} \d+/);
    expect((await fetch(metricsUrl.replace('/metrics', '/charge'))).status).toBe(404);
  });

  it('labels tRPC errors with the code their status says, not INTERNAL_SERVER_ERROR', async () => {
    const call = async (procedure: string, input: unknown) => {
      const response = await fetch(`${t.url}/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`);
      const { error } = (await response.json()) as { error: { code: number; data: { code: string; apiError: { code: number } } } };
      return { status: response.status, code: error.code, label: error.data.code, apiCode: error.data.apiError.code };
    };
    expect(await call('paymentLink.getPublic', { paymentLinkId: 'no-such-link' })).toMatchObject({
      status: 404,
      code: -32004,
      label: 'NOT_FOUND',
      apiCode: 61,
    });
    expect(await call('charge.get', { chargeId: 'x' })).toMatchObject({ status: 401, code: -32001, label: 'UNAUTHORIZED' });
    expect(await call('paymentLink.getPublic', {})).toMatchObject({ status: 400, code: -32600, label: 'BAD_REQUEST', apiCode: 90 });
  });
});
