import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { loadOr404 } from '../../../../lib/server';
import { PaymentLinkDetail } from './payment-link-detail';

export const metadata: Metadata = { title: 'Payment link' };

export default async function PaymentLinkPage({ params }: { params: Promise<{ paymentLinkId: string }> }) {
  const { paymentLinkId } = await params;
  const loaded = await loadOr404((trpc) => trpc.paymentLink.get.queryOptions({ paymentLinkId }));
  return (
    <HydrationBoundary state={loaded}>
      <PaymentLinkDetail paymentLinkId={paymentLinkId} />
    </HydrationBoundary>
  );
}
