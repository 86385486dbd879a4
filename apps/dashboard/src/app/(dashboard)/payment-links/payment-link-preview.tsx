'use client';

import { useQuery } from '@tanstack/react-query';
import { CardForm } from '../../../components/card-form';
import { PaymentPage, type PaymentPageLink } from '../../../components/payment-page';
import { useTRPC } from '../../../lib/trpc';

/**
 * The hosted page as payers will see it, under the account's name; inert, so that keyboard users
 * do not wander into its form. An amount the gateway would refuse is shown as such, with why,
 * never rounded into a price.
 */
export function PaymentLinkPreview({
  link,
  callToAction,
  amountProblem,
  askEmail,
}: {
  link: Omit<PaymentPageLink, 'merchantName'>;
  callToAction: 'Pay' | 'Donate';
  amountProblem?: string;
  askEmail: boolean;
}) {
  const merchantName = useQuery(useTRPC().staff.me.queryOptions()).data?.accountName ?? '';
  return (
    <section className="sticky" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Preview of the payment page</h2>
      <div className="preview" inert>
        <PaymentPage link={{ ...link, merchantName }} heading="h2" amountProblem={amountProblem}>
          <CardForm callToAction={callToAction} askEmail={askEmail} />
        </PaymentPage>
      </div>
    </section>
  );
}
