import type { Metadata } from 'next';
import { CustomerSearch } from './customer-search';

export const metadata: Metadata = { title: 'Customers' };

export default function CustomersPage() {
  return (
    <>
      <h1>Customers</h1>
      <CustomerSearch />
    </>
  );
}
