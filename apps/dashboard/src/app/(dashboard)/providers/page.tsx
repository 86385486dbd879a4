import type { Metadata } from 'next';
import Link from 'next/link';
import { ProviderList } from './provider-list';

export const metadata: Metadata = { title: 'Providers' };

export default function ProvidersPage() {
  return (
    <>
      <div className="page-header">
        <h1>Providers</h1>
        <Link className="button" href="/providers/new">
          Add a provider
        </Link>
      </div>
      <ProviderList />
    </>
  );
}
