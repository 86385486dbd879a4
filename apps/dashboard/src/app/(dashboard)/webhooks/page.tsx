import type { Metadata } from 'next';
import { NewSubscription } from './new-subscription';
import { RecentDeliveries } from './recent-deliveries';
import { WebhookEndpoints } from './webhook-endpoints';

export const metadata: Metadata = { title: 'Webhooks' };

export default function WebhooksPage() {
  return (
    <div className="stack">
      <h1>Webhooks</h1>
      <WebhookEndpoints />
      <NewSubscription />
      <RecentDeliveries />
    </div>
  );
}
