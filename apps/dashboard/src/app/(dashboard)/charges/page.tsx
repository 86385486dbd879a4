import type { Metadata } from 'next';
import Link from 'next/link';
import { HeldCallsBanner } from '../../../components/held-calls-banner';
import { ChargeSearch } from './charge-search';

export const metadata: Metadata = { title: 'Charges' };

export default function ChargesPage() {
  return (
    <>
      <div className="page-header">
        <h1>Charges</h1>
        <Link href="/outcome-unknown">Outcome unknown at the provider</Link>
      </div>
      <HeldCallsBanner />
      <ChargeSearch />
    </>
  );
}
