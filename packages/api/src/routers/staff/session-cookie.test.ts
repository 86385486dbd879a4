import { describe, expect, it } from 'vitest';
import { secureCookieFor, sessionCookie } from './session-cookie';

describe('the session cookie', () => {
  it('is Secure over https and on this machine over plain http, where browsers keep Secure cookies', () => {
    for (const url of [
      'https://dashboard.example',
      'http://127.0.0.1:3001',
      'http://localhost:3001',
      'http://[::1]:3001',
      'http://app.localhost',
    ]) {
      expect(secureCookieFor(url), url).toBe(true);
    }
  });

  it('is not Secure for a dashboard served over plain http to other machines, which could not keep it', () => {
    for (const url of ['http://dashboard.internal:3001', 'http://192.168.1.20:3001', 'http://127.0.0.1.example.com']) {
      expect(secureCookieFor(url), url).toBe(false);
    }
  });

  it('carries the attributes', () => {
    const expires = new Date('2030-01-01T00:00:00Z');
    expect(sessionCookie('t', expires, 'http://127.0.0.1:3001')).toBe(
      'gateway_session=t; Expires=Tue, 01 Jan 2030 00:00:00 GMT; Path=/; HttpOnly; SameSite=Lax; Secure',
    );
  });
});
