import type { Metadata } from 'next';
import { ProviderDetail } from './provider-detail';

export const metadata: Metadata = { title: 'Provider' };

export default async function ProviderPage({ params }: { params: Promise<{ providerId: string }> }) {
  const { providerId } = await params;
  return <ProviderDetail providerId={providerId} />;
}
