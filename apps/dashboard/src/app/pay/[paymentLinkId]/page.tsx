import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { CardForm } from '../../../components/card-form';
import { Message } from '../../../components/message';
import { PaymentPage } from '../../../components/payment-page';
import { config } from '../../../lib/config';
import { gatewayClient, statusOf } from '../../../lib/server';

type Props = { params: Promise<{ paymentLinkId: string }> };

/** What the gateway lets anyone see of a link (no key); null when there is no such link. */
const publicLink = cache(async (paymentLinkId: string) =>
  gatewayClient()
    .paymentLink.getPublic.query({ paymentLinkId })
    .catch((error: unknown) => {
      if (statusOf(error) === 404 || statusOf(error) === 400) return null;
      throw error;
    }),
);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const link = await publicLink((await params).paymentLinkId);
  return { title: link?.title ?? 'Payment link', robots: { index: false } };
}

/** The hosted payment page of a payment link: public, no dashboard session needed. */
export default async function PayPage({ params }: Props) {
  const link = await publicLink((await params).paymentLinkId);
  if (!link) notFound();
  return (
    <main className="pay-page">
      <PaymentPage link={link}>
        {link.soldOut ? (
          <Message kind="warning">This payment link is no longer accepting payments.</Message>
        ) : link.paymentTypes.includes('card') ? (
          <CardForm
            callToAction={link.callToAction}
            target={{ paymentLinkId: link.paymentLinkId, publicKey: link.publicKey, gatewayUrl: config.gatewayPublicUrl }}
          />
        ) : (
          <Message kind="warning">This payment link takes no payment method that can be used here yet.</Message>
        )}
      </PaymentPage>
    </main>
  );
}
