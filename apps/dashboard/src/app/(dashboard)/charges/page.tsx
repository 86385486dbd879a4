import type { Metadata } from 'next';
import { ChargeSearch } from './charge-search';

export const metadata: Metadata = { title: 'Charges' };

export default function ChargesPage() {
  return (
    <>
      <h1>Charges</h1>
      <ChargeSearch />
    </>
  );
}
