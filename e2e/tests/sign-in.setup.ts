import { join } from 'node:path';
import { expect, test as setup } from '@playwright/test';
import { demo, screenshot } from './support';

/** Signs the demo staff member in with the keyboard only, and keeps the session for the other tests. */
setup('staff sign in with email and password, keyboard only', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  await screenshot(page, 'sign-in');

  // A wrong password is refused with a message that is announced, and no session.
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(demo.staff.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type('not the password');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Wrong email or password');

  await page.getByLabel('Password').fill('');
  await page.getByLabel('Password').focus();
  await page.keyboard.type(demo.staff.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText(demo.staff.email)).toBeVisible();

  const [cookie] = (await page.context().cookies()).filter((c) => c.name === 'gateway_session');
  // Secure although the dashboard is served over plain http: it is on this machine, where Chromium keeps such cookies.
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true });
  await page.context().storageState({ path: join(process.env.E2E_DATA_DIR ?? '', 'staff-session.json') });
});
