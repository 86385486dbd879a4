import type { Metadata } from 'next';
import { PaymentLinkForm } from './payment-link-form';

export const metadata: Metadata = { title: 'New payment link' };

export default function NewPaymentLinkPage() {
  return (
    <>
      <h1>Create a payment link</h1>
      <PaymentLinkForm />
    </>
  );
}
