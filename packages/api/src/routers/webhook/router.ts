import { router } from '../../trpc';
import { createSubscription } from './create-subscription';
import { removeSubscription } from './delete-subscription';
import { getEvent } from './get-event';
import { getSubscription } from './get-subscription';
import { retryDelivery } from './retry-delivery';
import { rotateSigningKey } from './rotate-signing-key';
import { searchDeliveries } from './search-deliveries';
import { searchSubscriptions } from './search-subscriptions';
import { sendTest } from './send-test';
import { signingKey } from './signing-key';

export const webhookRouter = router({
  createSubscription,
  getSubscription,
  deleteSubscription: removeSubscription,
  searchSubscriptions,
  getEvent,
  searchDeliveries,
  signingKey,
  rotateSigningKey,
  sendTest,
  retryDelivery,
});
