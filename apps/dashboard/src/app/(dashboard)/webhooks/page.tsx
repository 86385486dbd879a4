import type { Metadata } from 'next';
import { WebhookEndpoints } from './webhook-endpoints';

export const metadata: Metadata = { title: 'Webhooks' };

export default function WebhooksPage() {
  return (
    <>
      <h1>Webhooks</h1>
      <WebhookEndpoints />
    </>
  );
}
