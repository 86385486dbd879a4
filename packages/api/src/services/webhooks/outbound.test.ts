import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNonPublicAddress, NON_PUBLIC_TARGET, postJson, refusedTarget } from './outbound';

describe('isNonPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:a9fe:a9fe',
    '192.0.0.8',
    '192.0.2.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '::a00:1',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
    'fec0::1',
    '100::1',
    '2001:db8::1',
  ])('refuses %s', (address) => expect(isNonPublicAddress(address)).toBe(true));

  it.each(['8.8.8.8', '172.32.0.1', '100.128.0.1', '192.169.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) =>
    expect(isNonPublicAddress(address)).toBe(false),
  );
});

describe('webhook requests', () => {
  let server: Server;
  let port: number;
  const seen: Array<{ headers: Record<string, unknown>; body: string }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        if (req.url === '/slow') return; // never answers
        if (req.url === '/long') return res.end('é'.repeat(1000)); // 2,000 bytes
        if (req.url === '/stalls') return res.write('partial'); // a body that never ends
        if (req.url === '/echoes') return res.end('ok\u0000 for card 4111 1111 1111 1111\u0007'); // a NUL, a card number
        res.statusCode = req.url === '/fail' ? 500 : 204;
        res.end(req.url === '/fail' ? 'Internal error: database down' : undefined);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const options = (allowPrivate: boolean) => ({ headers: { authorization: 'Bearer x' }, timeoutMs: 300, allowPrivate });

  it('refuses loopback by address and by name, before any connection, unless allowed', async () => {
    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]']) {
      expect(await postJson(`http://${host}:${port}/`, '{}', options(false))).toEqual({ error: NON_PUBLIC_TARGET, refused: true });
    }
    expect(seen).toEqual([]);
    expect(await refusedTarget(`http://localhost:${port}/`)).toBe(NON_PUBLIC_TARGET);
    expect(await refusedTarget('https://example')).toBeUndefined(); // does not resolve: each delivery checks again
  });

  it('sends the exact body and headers, and tells answers, errors and timeouts apart', async () => {
    const body = '{"meta":{"type":"customer"},"data":{"name":"Zoë"}}';
    expect(await postJson(`http://localhost:${port}/ok`, body, options(true))).toEqual({ statusCode: 204 });
    expect(seen.at(-1)).toMatchObject({ body, headers: { authorization: 'Bearer x', 'content-type': 'application/json' } });
    expect(await postJson(`http://127.0.0.1:${port}/fail`, body, options(true))).toEqual({
      statusCode: 500,
      error: 'The receiver answered 500',
      responseExcerpt: 'Internal error: database down',
    });
    expect(await postJson(`http://127.0.0.1:${port}/slow`, body, options(true))).toEqual({ error: 'No answer within 0.3 s' });
    const closed = await postJson('http://127.0.0.1:1/', body, options(true));
    expect(closed.error).toMatch(/ECONNREFUSED/);
    expect(closed.refused).toBeUndefined();
  });

  it("keeps the start of the answer's body: 512 bytes of a long one, what came of one that never ends", async () => {
    const long = await postJson(`http://127.0.0.1:${port}/long`, '{}', options(true));
    expect(long).toEqual({ statusCode: 200, responseExcerpt: 'é'.repeat(256) });
    expect(await postJson(`http://127.0.0.1:${port}/stalls`, '{}', options(true))).toEqual({ statusCode: 200, responseExcerpt: 'partial' });
  });

  it('keeps no control character (a text column refuses NUL) and no card number of the answer', async () => {
    const echoed = await postJson(`http://127.0.0.1:${port}/echoes`, '{}', options(true));
    expect(echoed).toEqual({ statusCode: 200, responseExcerpt: 'ok\uFFFD for card 411111******1111\uFFFD' });
  });

  it('settles, without sending, when Node cannot send a header value', async () => {
    const before = seen.length;
    const outcome = await postJson(`http://127.0.0.1:${port}/ok`, '{}', { ...options(true), headers: { authorization: 'a\r\nb' } });
    expect(outcome).toMatchObject({ refused: true, error: expect.any(String) });
    expect(seen.length).toBe(before);
  });
});
