import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, startTestGateway, type TestAccount, type TestGateway } from './harness';

/**
 * Issue 20, point 13. The public Java SDK's provider tests (payfurl/javasdk, ProviderApiTest: testCreateProvider and
 * testDeleteProvider), as its client puts them on the wire: camelCase keys, an explicit null for
 * every field not set, NAB's test merchant id and password. Creating a provider makes no call to
 * it (only the dashboard's "check credentials" does): NAB's endpoint here is a server that counts
 * what reaches it.
 */
let t: TestGateway;
let a: TestAccount;
const reachedNab: string[] = [];
const nab = createServer((req, res) => {
  reachedNab.push(`${req.method ?? ''} ${req.url ?? ''}`);
  res.statusCode = 500;
  res.end();
});

beforeAll(async () => {
  nab.listen(0, '127.0.0.1');
  await once(nab, 'listening');
  const { port } = nab.address() as AddressInfo;
  t = await startTestGateway({ providerEndpoints: { nab_transact: `http://127.0.0.1:${port}` } });
  a = await createAccount(t, []);
});
afterAll(async () => {
  await t?.close();
  nab.close();
});

/** NewProvider as the Java client sends it (Jackson: camelCase getters, nulls written out). */
const javaNewProvider = (name: string) => ({
  type: 'nab_transact',
  name,
  environment: 'SANDBOX',
  authenticationParameters: { Password: 'abcd1234', MerchantId: 'XYZ0010' },
  providerCountry: 'AUS',
  currency: 'AUD',
  threeDsProviderId: null,
});

async function create(name: string) {
  const { status, body } = await a.api.post('/provider', javaNewProvider(name));
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}

describe('the Java SDK’s nab_transact provider tests', () => {
  it('testCreateProvider: answers the provider, credentials masked, without calling NAB', async () => {
    const name = `NabTransact${randomUUID()}`;
    const provider = await create(name);
    expect(provider).toMatchObject({
      providerId: expect.any(String),
      type: 'nab_transact',
      name,
      environment: 'SANDBOX',
      authenticationParameters: { Password: '********', MerchantId: '********' },
      providerCountry: 'AUS',
      currency: 'AUD',
    });
    expect(JSON.stringify(provider)).not.toContain('abcd1234');
    expect((await a.api.get(`/provider/${String(provider.providerId)}`)).body).toEqual(provider);
    expect(reachedNab).toEqual([]);
  });

  it('testDeleteProvider: answers the provider it removed, which is then unknown', async () => {
    const provider = await create(`NabTransact${randomUUID()}`);
    const providerId = String(provider.providerId);
    const deleted = await a.api.delete(`/provider/${providerId}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toMatchObject({ providerId, type: 'nab_transact' });
    expect(await a.api.get(`/provider/${providerId}`)).toMatchObject({ status: 404, body: { code: 39 } });
    expect(reachedNab).toEqual([]);
  });
});
