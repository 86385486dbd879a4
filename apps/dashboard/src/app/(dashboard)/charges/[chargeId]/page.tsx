import type { Metadata } from 'next';
import { ChargeDetail } from './charge-detail';

export const metadata: Metadata = { title: 'Charge' };

export default async function ChargePage({ params }: { params: Promise<{ chargeId: string }> }) {
  const { chargeId } = await params;
  return <ChargeDetail chargeId={chargeId} />;
}
