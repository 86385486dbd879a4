import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '@gateway/api';
import { escapeHtml } from '@gateway/core';
import { simulatedIssuerPage, type IssuerPageAnswer } from '@gateway/providers';

/**
 * The browser's side of 3-D Secure (docs/three-d-secure.md), pages rather than API answers:
 *
 *   GET       /3ds/{token}                the charge's threeDsRedirectUrl: to the provider's page (303,
 *                                         or a form posted by itself), or a page saying it is over
 *   GET|POST  /3ds/{token}/return         where the provider sends the payer back: the charge is
 *                                         completed from what the provider says, then 303 to the
 *                                         merchant's threeDSNotificationUrl
 *   GET|POST  /simulator/3ds/{challenge}  the simulated issuer's challenge page (dummy providers)
 *
 * No page sends a Referer (its URL holds the charge's token) or may be kept by a cache.
 */

const PATHS = {
  page: /^\/3ds\/([A-Za-z0-9_-]{16,64})$/,
  return: /^\/3ds\/([A-Za-z0-9_-]{16,64})\/return$/,
  issuer: /^\/simulator\/3ds\/([A-Za-z0-9_-]{1,80})$/,
};

/** Form bodies of the provider's return (Adyen may POST redirectResult) and the issuer page's buttons. */
const MAX_FORM_BYTES = 64 * 1024;

/** Whether a path is one of these pages' (a prefix test: every other request passes by at no cost). */
export const isThreeDsPath = (path: string) => path.startsWith('/3ds/') || path.startsWith('/simulator/3ds/');

/** A path of one of these pages, as logged: the charge's token (or the challenge's id, which answers it) left out. */
export function threeDsPathForLog(path: string): string | undefined {
  if (!isThreeDsPath(path)) return undefined;
  if (PATHS.page.test(path)) return '/3ds/{token}';
  if (PATHS.return.test(path)) return '/3ds/{token}/return';
  return PATHS.issuer.test(path) ? '/simulator/3ds/{challenge}' : undefined;
}

function page(res: ServerResponse, status: number, title: string, body: string, nonce?: string) {
  res.statusCode = status;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader(
    'content-security-policy',
    `default-src 'none'; style-src 'unsafe-inline'; form-action http: https:; frame-ancestors 'none'${nonce ? `; script-src 'nonce-${nonce}'` : ''}`,
  );
  res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}</style>
</head><body>${body}</body></html>`);
}

function redirect(res: ServerResponse, location: string) {
  res.statusCode = 303;
  res.setHeader('location', location);
  res.setHeader('referrer-policy', 'no-referrer');
  res.end();
}

const notFound = (res: ServerResponse) =>
  page(res, 404, 'Not found', '<h1>No such payment authentication</h1><p>The link is wrong, or belongs to nothing here.</p>');

/** The query of the request, with a POSTed form's fields over it. */
async function parametersOf(req: IncomingMessage, url: URL): Promise<Record<string, string> | undefined> {
  const parameters = Object.fromEntries(url.searchParams);
  if (req.method !== 'POST') return parameters;
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  return { ...parameters, ...Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) };
}

function issuerAnswer(res: ServerResponse, answer: IssuerPageAnswer) {
  if ('location' in answer) return redirect(res, answer.location);
  res.statusCode = answer.status;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('referrer-policy', 'no-referrer');
  // The buttons post to this page, whose answer redirects through the return to the merchant's
  // threeDSNotificationUrl: browsers hold a form's redirects to form-action too, so any http(s) is allowed.
  res.setHeader(
    'content-security-policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'",
  );
  res.end(answer.html);
}

/** Answers a request to one of these pages (isThreeDsPath): the page, a redirect, or 404. */
export function createThreeDsPages(services: Services, simulatorUrl: string) {
  const { threeDs } = services.charges;
  const issuer = simulatedIssuerPage(simulatorUrl);

  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://gateway');
    const [, token] = PATHS.page.exec(path) ?? [];
    if (token && method === 'GET') {
      const answer = await threeDs.challengePage(token);
      if (!answer) notFound(res);
      else if (answer.kind === 'redirect') redirect(res, answer.url);
      else if (answer.kind === 'wait') {
        res.setHeader('refresh', '2');
        page(res, 200, 'Payment authentication', '<h1>One moment…</h1><p>Your payment is being prepared; this page goes on by itself.</p>');
      } else if (answer.kind === 'over') {
        page(
          res,
          200,
          'Payment authentication',
          `<h1>This payment's authentication is over</h1><p>Its status is ${escapeHtml(answer.status)}.</p>
<p><a href="${escapeHtml(answer.continueUrl)}">Return to the merchant</a></p>`,
        );
      } else {
        const nonce = randomBytes(16).toString('base64');
        const fields = Object.entries(answer.data)
          .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
          .join('');
        page(
          res,
          200,
          'Authenticating…',
          `<form id="to-issuer" method="post" action="${escapeHtml(answer.url)}">${fields}<p>Taking you to your bank to confirm this payment…</p>
<noscript><button type="submit">Continue</button></noscript></form>
<script nonce="${nonce}">document.getElementById('to-issuer').submit();</script>`,
          nonce,
        );
      }
      return;
    }
    const [, returning] = PATHS.return.exec(path) ?? [];
    if (returning && (method === 'GET' || method === 'POST')) {
      const parameters = await parametersOf(req, url);
      const answer = parameters && (await threeDs.returned(returning, parameters));
      if (answer) redirect(res, answer.location);
      else notFound(res);
      return;
    }
    const [, challengeId] = PATHS.issuer.exec(path) ?? [];
    if (challengeId && (method === 'GET' || method === 'POST')) {
      const action = method === 'POST' ? ((await parametersOf(req, url))?.action ?? '') : undefined;
      issuerAnswer(res, action === undefined ? await issuer.show(challengeId) : await issuer.answer(challengeId, action));
      return;
    }
    notFound(res);
  };
}
