import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { loadOr404 } from '../../../../lib/server';
import { ProviderDetail } from './provider-detail';

export const metadata: Metadata = { title: 'Provider' };

export default async function ProviderPage({ params }: { params: Promise<{ providerId: string }> }) {
  const { providerId } = await params;
  const loaded = await loadOr404((trpc) => trpc.provider.get.queryOptions({ providerId }));
  return (
    <HydrationBoundary state={loaded}>
      <ProviderDetail providerId={providerId} />
    </HydrationBoundary>
  );
}
