import type { Metadata } from 'next';
import Link from 'next/link';
import { BatchSearch } from './batch-search';

export const metadata: Metadata = { title: 'Batches' };

export default function BatchesPage() {
  return (
    <>
      <div className="page-header">
        <h1>Batches</h1>
        <Link className="button" href="/batches/new">
          Upload a batch
        </Link>
      </div>
      <BatchSearch />
    </>
  );
}
