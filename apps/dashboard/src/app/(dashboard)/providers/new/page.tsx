import type { Metadata } from 'next';
import { ProviderForm } from '../provider-form';

export const metadata: Metadata = { title: 'New provider' };

export default function NewProviderPage() {
  return (
    <>
      <h1>Add a provider</h1>
      <ProviderForm />
    </>
  );
}
