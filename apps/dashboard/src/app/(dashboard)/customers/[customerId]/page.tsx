import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { loadOr404 } from '../../../../lib/server';
import { CustomerDetail } from './customer-detail';

export const metadata: Metadata = { title: 'Customer' };

export default async function CustomerPage({ params }: { params: Promise<{ customerId: string }> }) {
  const { customerId } = await params;
  const loaded = await loadOr404((trpc) => trpc.customer.get.queryOptions({ customerId }));
  return (
    <HydrationBoundary state={loaded}>
      <CustomerDetail customerId={customerId} />
    </HydrationBoundary>
  );
}
