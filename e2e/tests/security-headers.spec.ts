import { expect, test, type Page } from '@playwright/test';
import { dashboardUrl, gatewayUrl, merchantApi } from './support';

/**
 * Every dashboard page runs its scripts under a Content-Security-Policy with a nonce of its own
 * (no inline script without it), works under it, and no answer tells the gateway's internal
 * address. Only a browser can show that the pages run under the policy.
 */

/** The page's script-src, after checking that the policy holds a nonce and no 'unsafe-inline' script. */
async function scriptPolicy(page: Page, path: string): Promise<string> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto(path);
  const policy = (await response?.headerValue('content-security-policy')) ?? '';
  const scripts = policy.split(';').find((directive) => directive.trim().startsWith('script-src')) ?? '';
  expect(scripts, path).toMatch(/'nonce-[A-Za-z0-9+/=]{20,}'/);
  expect(scripts, path).not.toContain('unsafe-inline');
  expect(scripts, path).not.toContain('unsafe-eval');
  await expect(page.locator('main')).toBeVisible();
  // Next's inline bootstrap carries the nonce: the page hydrates and nothing was blocked. (Chunks
  // its runtime adds later are files of this origin, which the policy allows; a blocked one would
  // be a violation below.)
  const unnonced = await page.evaluate(() => [...document.scripts].filter((script) => !script.nonce && !script.src).length);
  expect(unnonced, path).toBe(0);
  expect(violations, path).toEqual([]);
  return scripts;
}

test('dashboard pages, the sign-in page and the payment page run under a nonce CSP, a new nonce each time', async ({ page, browser }) => {
  for (const path of ['/', '/charges', '/batches/new', '/payment-links/new']) await scriptPolicy(page, path);
  const first = await scriptPolicy(page, '/charges');
  const second = await scriptPolicy(page, '/charges');
  expect(first).not.toBe(second);
  // The dashboard works under it: a search answers.
  await expect(page.getByRole('button', { name: 'Search' })).toBeEnabled();

  const stranger = await browser.newPage();
  await scriptPolicy(stranger, '/sign-in');
  await expect(stranger.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  const api = await merchantApi();
  const link = (await (await api.post('/payment_link', { data: { title: 'CSP check', amount: 3, currency: 'AUD' } })).json()) as {
    url: string;
  };
  await api.dispose();
  await scriptPolicy(stranger, new URL(link.url).pathname);
  await expect(stranger.getByRole('button', { name: 'Pay' })).toBeEnabled();
  await stranger.close();
});

test('the /trpc answers passed on by the dashboard tell nothing of the gateway’s address', async ({ page }) => {
  await page.goto('/');
  const answer = await page.request.get('/trpc/staff.me');
  expect(answer.status()).toBe(200);
  const headers = answer.headersArray();
  expect(headers.map((h) => h.name.toLowerCase())).not.toContain('x-middleware-rewrite');
  const gateway = new URL(gatewayUrl);
  for (const { name, value } of headers) expect(`${name}: ${value}`).not.toContain(gateway.host);
  expect(answer.headers()['cache-control']).toBe('no-store');
  // tRPC's label says what the status says.
  const missing = await page.request.get(`/trpc/charge.get?input=${encodeURIComponent(JSON.stringify({ chargeId: 'no-such-charge' }))}`);
  expect(missing.status()).toBe(404);
  expect(((await missing.json()) as { error: { data: { code: string } } }).error.data.code).toBe('NOT_FOUND');
});

test('a browser cannot name its own address to the dashboard: sign-in failures count against the one it comes from', async ({
  playwright,
}) => {
  const browserless = await playwright.request.newContext({ baseURL: dashboardUrl });
  const email = `spoofer-${Date.now()}@example.com`;
  const statuses: number[] = [];
  for (let i = 1; i <= 7; i += 1) {
    const answer = await browserless.post('/trpc/staff.signIn', {
      headers: { 'x-forwarded-for': `198.51.100.${i}` },
      data: { email, password: `guess ${i}` },
    });
    statuses.push(answer.status());
  }
  // Five failures per email and address (docs/operations.md), whatever address each claimed.
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  await browserless.dispose();
});
