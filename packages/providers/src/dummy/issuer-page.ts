import { escapeHtml, findCurrency, formatAmount } from '@gateway/core';
import { requestJson } from '../http-json.js';

/**
 * The simulated issuer's 3-D Secure challenge page. The gateway serves it at its own public address
 * (`/simulator/3ds/{challengeId}`: a payer's browser cannot reach the simulated acquirer, which
 * listens inside the deployment), from the challenge the acquirer keeps: the merchant's name, the
 * amount and the masked card, and three buttons. Pressing one tells the acquirer, which answers
 * once, and sends the browser back to the return URL the payment gave (303).
 */

/** What the page answers: an HTML page, or where the browser goes next. */
export type IssuerPageAnswer = { status: number; html: string } | { status: 303; location: string };

const ACTIONS = ['complete', 'fail', 'cancel'] as const;
const TIMEOUT_MS = 10_000;

interface ChallengeView {
  state: 'waiting' | 'completed' | 'failed' | 'cancelled';
  merchantName: string;
  returnUrl: string;
  amount: string;
  currency: string;
  cardLast4: string;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}dt{color:#555}button{display:block;width:100%;margin:.6rem 0;padding:.7rem;font-size:1rem}
</style></head><body>${body}</body></html>`;
}

const notFound = (): IssuerPageAnswer => ({ status: 404, html: page('Not found', '<h1>No such authentication</h1>') });

function challengePage(challengeId: string, challenge: ChallengeView): string {
  const currency = findCurrency(challenge.currency);
  // Intl formats the exact decimal text (a string, never a binary float).
  const amount = currency
    ? new Intl.NumberFormat('en', { style: 'currency', currency: currency.code }).format(
        formatAmount(BigInt(challenge.amount), currency) as `${number}`,
      )
    : `${challenge.amount} ${challenge.currency}`;
  if (challenge.state !== 'waiting') {
    return page(
      'Authentication finished',
      `<h1>Authentication finished</h1><p>This authentication is over (${escapeHtml(challenge.state)}).</p>`,
    );
  }
  return page(
    'Verify your payment',
    `<h1>Verify your payment</h1>
<p>Simulated card issuer: this page stands for your bank's 3-D Secure check.</p>
<dl><dt>Merchant</dt><dd>${escapeHtml(challenge.merchantName)}</dd><dt>Amount</dt><dd>${escapeHtml(amount)}</dd>
<dt>Card</dt><dd>•••• ${escapeHtml(challenge.cardLast4)}</dd></dl>
<form method="post" action="${escapeHtml(encodeURIComponent(challengeId))}">
<button type="submit" name="action" value="complete">Complete authentication</button>
<button type="submit" name="action" value="fail">Fail authentication</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</form>`,
  );
}

export function simulatedIssuerPage(simulatorUrl: string) {
  const challengeUrl = (challengeId: string) => `${simulatorUrl.replace(/\/+$/, '')}/v1/challenges/${encodeURIComponent(challengeId)}`;

  return {
    async show(challengeId: string): Promise<IssuerPageAnswer> {
      const { status, json } = await requestJson('GET', challengeUrl(challengeId), undefined, {}, TIMEOUT_MS);
      if (status !== 200) return notFound();
      return { status: 200, html: challengePage(challengeId, json as ChallengeView) };
    },

    async answer(challengeId: string, action: string): Promise<IssuerPageAnswer> {
      if (!(ACTIONS as readonly string[]).includes(action)) return { status: 400, html: page('Bad request', '<h1>Unknown action</h1>') };
      const { status, json } = await requestJson('POST', challengeUrl(challengeId), { action }, {}, TIMEOUT_MS);
      if (status !== 200) return notFound();
      return { status: 303, location: (json as Pick<ChallengeView, 'returnUrl'>).returnUrl };
    },
  };
}
