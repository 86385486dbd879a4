import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { loadOr404 } from '../../../../lib/server';
import { BatchDetail } from './batch-detail';

export const metadata: Metadata = { title: 'Batch' };

export default async function BatchPage({ params }: { params: Promise<{ batchId: string }> }) {
  const { batchId } = await params;
  const loaded = await loadOr404((trpc) => trpc.batch.status.queryOptions({ batchId }));
  return (
    <HydrationBoundary state={loaded}>
      <BatchDetail batchId={batchId} />
    </HydrationBoundary>
  );
}
