import type { ServerResponse } from 'node:http';
import type { ChallengeOutcome, StripeBehaviour } from './behaviour.js';
import { escapeHtml } from '@gateway/core';

/**
 * The fake's 3-D Secure challenge page, where `next_action.redirect_to_url.url` sends the payer:
 * the part of Stripe's test mode that is a web page, not its API (no description covers it, so
 * nothing here is validated). Like Stripe's test page it offers two buttons, "Complete
 * authentication" and "Fail authentication"; pressing one answers the challenge and redirects
 * (303) the browser to the return URL with `payment_intent` and `payment_intent_client_secret`.
 */

/** `GET|POST <fake>/_fake/3ds/{payment intent}`. */
export const CHALLENGE_PATH = '/_fake/3ds/';

const OUTCOMES: Record<string, ChallengeOutcome> = { complete: 'complete', fail: 'fail' };

function page(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>3D Secure 2 Test Page</title></head>
<body>
<h1>3D Secure 2 Test Page</h1>
${body}
</body>
</html>
`);
}

/** Answers a request for the challenge page of payment intent `id` (a GET shows it, a POST presses a button). */
export function serveChallengePage(behaviour: StripeBehaviour, method: string, id: string, body: string, res: ServerResponse): void {
  const back = behaviour.returnAddress(id);
  if (back === undefined) {
    page(res, 404, '<p>No payment is waiting for authentication here.</p>');
  } else if (method === 'POST') {
    const outcome = OUTCOMES[new URLSearchParams(body).get('outcome') ?? ''];
    if (!outcome) page(res, 400, '<p>Choose "Complete authentication" or "Fail authentication".</p>');
    else {
      res.writeHead(303, { location: behaviour.answerChallenge(id, outcome)!, 'cache-control': 'no-store' });
      res.end();
    }
  } else if (behaviour.challengeOpen(id)) {
    page(
      res,
      200,
      `<p>This is a test payment: choose how the card's issuer answers.</p>
<form method="post">
<button type="submit" name="outcome" value="complete">Complete authentication</button>
<button type="submit" name="outcome" value="fail">Fail authentication</button>
</form>`,
    );
  } else {
    page(res, 200, `<p>This authentication is over.</p>\n<p><a href="${escapeHtml(back)}">Return to the merchant</a></p>`);
  }
}
