import type { Metadata } from 'next';
import { ProviderList } from './provider-list';

export const metadata: Metadata = { title: 'Providers' };

export default function ProvidersPage() {
  return (
    <>
      <h1>Providers</h1>
      <ProviderList />
    </>
  );
}
