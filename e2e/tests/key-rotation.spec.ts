import { expect, test } from '@playwright/test';
import { dashboardUrl, demo, merchantApi, screenshot } from './support';

/** Runs last (its own project): it replaces the demo account's secret key, and signs out. */
test('API keys: the public key is shown; a rotated secret key is revealed once and the old one stops working', async ({ page }) => {
  await page.goto('/api-keys');
  await expect(page.getByTestId('public-key')).toHaveText(demo.publicKey);
  await expect(page.getByRole('region', { name: 'Secret key' })).toContainText(`…${demo.secretKey.slice(-4)}`);
  await screenshot(page, 'api-keys');

  await page.getByRole('button', { name: 'Rotate the secret key' }).click();
  await page.getByRole('button', { name: 'Yes, replace the secret key' }).click();
  const revealed = page.getByTestId('new-secret-key');
  await expect(revealed).toHaveText(/^sk_/);
  const secretKey = (await revealed.textContent()) ?? '';

  const oldKey = await merchantApi();
  expect((await oldKey.get('/charge')).status()).toBe(401);
  const newKey = await merchantApi(secretKey);
  expect((await newKey.get('/charge')).status()).toBe(200);
  await Promise.all([oldKey.dispose(), newKey.dispose()]);

  await page.reload();
  await expect(page.getByTestId('new-secret-key')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Secret key' })).toContainText(`…${secretKey.slice(-4)}`);
});

test('signing out ends the session; signing in again goes back to the page asked for, never to another site', async ({ page }) => {
  const signIn = async () => {
    await page.getByLabel('Email').fill(demo.staff.email);
    await page.getByLabel('Password').fill(demo.staff.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  await page.context().route(
    (url) => url.hostname === 'evil.example',
    (route) => route.fulfill({ contentType: 'text/html', body: '<h1>Evil</h1>' }),
  );
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  // A sign-in link whose `next` a browser reads as another site (`/\host` is `//host`) leads home.
  await page.goto(`/sign-in?next=${encodeURIComponent('/\\evil.example/login')}`);
  await signIn();
  await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeVisible();
  expect(page.url()).toBe(`${dashboardUrl}/`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  await page.goto('/charges?status=SUCCESS');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcharges%3Fstatus%3DSUCCESS$/);
  await signIn();
  await expect(page).toHaveURL(/\/charges\?status=SUCCESS$/);
  await expect(page.getByLabel('Status', { exact: true })).toHaveValue('SUCCESS');
});
