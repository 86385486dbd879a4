'use client';

import { failureReason } from '@gateway/core/errors/failure-reasons';
import { useQueries, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Details } from '../../../../components/details';
import { Loaded } from '../../../../components/loaded';
import { StatusBadge } from '../../../../components/status-badge';
import { formatDate, formatMoney } from '../../../../lib/format';
import { useTRPC } from '../../../../lib/trpc';
import type { Charge } from '../../../../lib/types';
import { ChargeActions } from './charge-actions';
import { heldCallEvents, HeldCallNotices, useHeldCallsOf } from './held-call';
import { ThreeDSecure } from './three-d-secure';

/**
 * The names of the providers a charge's attempts went to (read by id; a provider removed since is
 * named so), for people to read where ids mean nothing.
 */
function useProviderNames(c: Charge): (providerId: string) => string {
  const trpc = useTRPC();
  const ids = [...new Set(c.failedAttempts.map((a) => a.providerId))].filter((id) => id !== c.provider?.providerId);
  const answers = useQueries({ queries: ids.map((providerId) => trpc.provider.get.queryOptions({ providerId })) });
  const names = new Map(c.provider ? [[c.provider.providerId, c.provider.name]] : []);
  ids.forEach((id, index) => {
    const answer = answers[index];
    if (answer?.data) names.set(id, answer.data.name);
    else if (answer?.isError) names.set(id, 'a provider since removed');
  });
  return (providerId) => names.get(providerId) ?? 'a provider';
}

/** What happened to a charge, oldest first: attempts, capture, void, refunds, calls held for staff. */
function history(
  c: Charge,
  providerName: (providerId: string) => string,
  held: Array<{ at: string; text: string }>,
): Array<{ at: string; text: string }> {
  const money = (amount: number) => formatMoney(amount, c.currency);
  const events = [
    { at: c.dateAdded, text: `Created for ${money(c.authorisationAmount ?? c.amount)}` },
    ...c.failedAttempts.map((a) => ({
      at: a.dateAttempted,
      text: `Attempt failed at ${providerName(a.providerId)}: ${a.errorMessage}${a.gatewayCode ? ` (provider code ${a.gatewayCode})` : ''}`,
    })),
    ...(c.successDate ? [{ at: c.successDate, text: `Captured ${money(c.amount)}` }] : []),
    ...(c.voidDate ? [{ at: c.voidDate, text: 'Authorisation cancelled (voided)' }] : []),
    ...c.refunds.map((r) => ({ at: r.dateAdded, text: `Refunded ${money(r.amount)}${r.comment ? ` — “${r.comment}”` : ''}` })),
    ...held,
  ];
  return events.sort((x, y) => x.at.localeCompare(y.at));
}

/** The payment link a charge was paid on, by its title, linking to its page. */
function PaymentLinkName({ paymentLinkId }: { paymentLinkId: string }) {
  const trpc = useTRPC();
  const link = useQuery(trpc.paymentLink.get.queryOptions({ paymentLinkId }));
  return <Link href={`/payment-links/${paymentLinkId}`}>{link.data?.title ?? paymentLinkId}</Link>;
}

export function ChargeDetail({ chargeId }: { chargeId: string }) {
  const trpc = useTRPC();
  return <Loaded query={useQuery(trpc.charge.get.queryOptions({ chargeId }))}>{(charge) => <ChargeView c={charge} />}</Loaded>;
}

/** Why a failed charge failed, first thing on its page: the last attempt's error, explained. */
function FailureReason({ c, providerName }: { c: Charge; providerName: (providerId: string) => string }) {
  const last = c.failedAttempts.at(-1);
  if (c.status !== 'FAILED' || !last) return null;
  const reason = failureReason(last.errorCode);
  return (
    <section className="card callout bad" aria-labelledby="failure-reason">
      <h2 id="failure-reason">{reason.summary}</h2>
      <p>{reason.meaning}</p>
      <p>
        <strong>What the payer can do:</strong> {reason.payerCan}
      </p>
      <p className="hint">
        {providerName(last.providerId)} answered: {last.gatewayMessage ?? last.errorMessage}
        {last.gatewayCode ? ` (code ${last.gatewayCode})` : ''}.
      </p>
    </section>
  );
}

function ChargeView({ c }: { c: Charge }) {
  const card = c.paymentInformation.card;
  const providerName = useProviderNames(c);
  const held = useHeldCallsOf(c.chargeId);
  return (
    <>
      <div className="page-header">
        <h1>
          Charge of {formatMoney(c.amount, c.currency)} <StatusBadge status={c.status} />
        </h1>
        <Link href="/charges">All charges</Link>
      </div>
      <HeldCallNotices chargeId={c.chargeId} />
      <FailureReason c={c} providerName={providerName} />
      {c.status === 'AUTHORISE' && (
        <p className="message warning">
          Authorised, not captured: {formatMoney(c.authorisationAmount ?? c.amount, c.currency)} is reserved on the payer’s card, not taken.
          Capture it to take the money, or void it to release it.
        </p>
      )}
      <div className="grid-2">
        <Details
          title="Details"
          items={[
            ['Charge id', c.chargeId],
            ['Reference', c.reference],
            ['Email', c.paymentInformation.email],
            ['Payment link', c.paymentLinkId && <PaymentLinkName paymentLinkId={c.paymentLinkId} />],
            ['Authorised', c.authorisationAmount === null ? null : formatMoney(c.authorisationAmount, c.currency)],
            ['Refunded', formatMoney(c.refundedAmount, c.currency)],
            ['Provider', c.provider && <Link href={`/providers/${c.provider.providerId}`}>{c.provider.name}</Link>],
            ['Estimated fee', c.estimatedCost === null ? null : formatMoney(c.estimatedCost, c.estimatedCostCurrency ?? c.currency)],
            ['Payment', card ? `${card.type ?? 'Card'} ${card.cardNumber}, expires ${card.expiryDate ?? '—'}` : c.paymentInformation.type],
            ['Cardholder', card?.cardholder],
            ['Customer', c.customerId && <Link href={`/customers/${c.customerId}`}>{c.customer?.email ?? c.customerId}</Link>],
            ['Added', formatDate(c.dateAdded)],
          ]}
        />
        <ChargeActions charge={c} />
        <ThreeDSecure c={c} />
      </div>
      <section className="card" aria-labelledby="charge-history">
        <h2 id="charge-history">History</h2>
        <ol>
          {history(c, providerName, heldCallEvents([...held.open, ...held.settled])).map((event) => (
            <li key={`${event.at} ${event.text}`}>
              <time dateTime={event.at}>{formatDate(event.at)}</time> — {event.text}
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
