import type { Metadata } from 'next';
import { PaymentLinkDetail } from './payment-link-detail';

export const metadata: Metadata = { title: 'Payment link' };

export default async function PaymentLinkPage({ params }: { params: Promise<{ paymentLinkId: string }> }) {
  const { paymentLinkId } = await params;
  return <PaymentLinkDetail paymentLinkId={paymentLinkId} />;
}
