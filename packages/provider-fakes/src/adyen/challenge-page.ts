import type { ChallengeView } from './ledger.js';
import { CHALLENGE_PASSWORD } from './test-cards.js';
import type { ChallengeOutcome } from './three-d-secure.js';
import { escapeHtml } from '@gateway/core';

/**
 * The issuer's 3-D Secure challenge page of the fake Adyen, served on the fake's own address (the
 * page Adyen's redirect `action` sends the shopper to): plain HTML a browser test can press. The
 * buttons post the shopper's verdict; the password field takes Adyen's test password, and any other
 * password fails the authentication, as Adyen's test issuer does.
 */

/** Where challenge pages are served: `/fake/3ds/<pspReference>`, the verdict posted to `…/result`. */
export const CHALLENGE_PATH = '/fake/3ds';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;

export function challengePage(psp: string, creq: string, view: ChallengeView): string {
  return page(
    'Fake Adyen – 3-D Secure',
    `<h1>Authenticate your payment</h1>
<p>Merchant: ${escapeHtml(view.merchantAccount)}</p>
<p>Amount: ${escapeHtml(view.currency)} ${view.value} (minor units)</p>
<p>Card: ${escapeHtml(view.brand)} ending ${escapeHtml(view.last4)}</p>
<form method="post" action="${CHALLENGE_PATH}/${encodeURIComponent(psp)}/result">
<input type="hidden" name="creq" value="${escapeHtml(creq)}">
<label>Password <input type="password" name="password" autocomplete="off"></label>
<button type="submit" name="outcome" value="complete">Complete authentication</button>
<button type="submit" name="outcome" value="fail">Fail authentication</button>
<button type="submit" name="outcome" value="cancel">Cancel</button>
</form>`,
  );
}

export function challengeMissing(): string {
  return page('Fake Adyen – 3-D Secure', '<h1>No such authentication</h1><p>The link is incomplete or not for this payment.</p>');
}

/** The shopper's verdict from the page's form: a wrong password fails the authentication. */
export function verdictOf(form: URLSearchParams): ChallengeOutcome | undefined {
  const outcome = form.get('outcome');
  if (outcome !== 'complete' && outcome !== 'fail' && outcome !== 'cancel') return undefined;
  const password = form.get('password') ?? '';
  return outcome === 'complete' && password !== '' && password !== CHALLENGE_PASSWORD ? 'fail' : outcome;
}
