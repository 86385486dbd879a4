import type { Metadata } from 'next';
import { BatchDetail } from './batch-detail';

export const metadata: Metadata = { title: 'Batch' };

export default async function BatchPage({ params }: { params: Promise<{ batchId: string }> }) {
  const { batchId } = await params;
  return <BatchDetail batchId={batchId} />;
}
