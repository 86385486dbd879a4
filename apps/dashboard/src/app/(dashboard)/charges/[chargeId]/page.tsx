import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { loadOr404 } from '../../../../lib/server';
import { ChargeDetail } from './charge-detail';

export const metadata: Metadata = { title: 'Charge' };

export default async function ChargePage({ params }: { params: Promise<{ chargeId: string }> }) {
  const { chargeId } = await params;
  const loaded = await loadOr404((trpc) => trpc.charge.get.queryOptions({ chargeId }));
  return (
    <HydrationBoundary state={loaded}>
      <ChargeDetail chargeId={chargeId} />
    </HydrationBoundary>
  );
}
