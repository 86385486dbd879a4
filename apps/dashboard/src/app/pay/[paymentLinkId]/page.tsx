import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { CardForm } from '../../../components/card-form';
import { Message } from '../../../components/message';
import { PaymentOutcome } from '../../../components/payment-outcome';
import { PaymentPage } from '../../../components/payment-page';
import { config } from '../../../lib/config';
import { httpStatusOf } from '../../../lib/http-status';
import { gatewayClient } from '../../../lib/server';

type Props = {
  params: Promise<{ paymentLinkId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** What the gateway lets anyone see of a link (no key); null when there is no such link. */
const publicLink = cache(async (paymentLinkId: string) =>
  gatewayClient()
    .paymentLink.getPublic.query({ paymentLinkId })
    .catch((error: unknown) => {
      if (httpStatusOf(error) === 404 || httpStatusOf(error) === 400) return null;
      throw error;
    }),
);

/** The charge a payer comes back with from their bank (3-D Secure adds it to this page's address); only an id's shape is kept. */
function returningCharge(query: Record<string, string | string[] | undefined>): string | undefined {
  const { chargeId } = query;
  return typeof chargeId === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(chargeId) ? chargeId : undefined;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const link = await publicLink((await params).paymentLinkId);
  return { title: link?.title ?? 'Payment link', robots: { index: false } };
}

/** The hosted payment page of a payment link: public, no dashboard session needed. */
export default async function PayPage({ params, searchParams }: Props) {
  const link = await publicLink((await params).paymentLinkId);
  if (!link) notFound();
  const chargeId = returningCharge(await searchParams);
  const target = { paymentLinkId: link.paymentLinkId, publicKey: link.publicKey, gatewayUrl: config.gatewayPublicUrl };
  const payment = (focused: boolean) =>
    link.soldOut ? (
      <Message kind="warning">This payment link is no longer accepting payments.</Message>
    ) : link.paymentTypes.includes('card') ? (
      <CardForm callToAction={link.callToAction} target={target} focused={focused} askEmail={link.askEmail} />
    ) : (
      <Message kind="warning">This payment link takes no payment method that can be used here yet.</Message>
    );
  return (
    <main className="pay-page">
      <PaymentPage link={link}>
        {chargeId ? (
          <PaymentOutcome target={target} chargeId={chargeId} callToAction={link.callToAction} payAgain={payment(true)} />
        ) : (
          payment(false)
        )}
      </PaymentPage>
    </main>
  );
}
