import { z } from 'zod';

export const input = z.object({ webhookSubscriptionId: z.string().min(1).max(64) });
export const output = z.object({
  /** The test event: its delivery log (webhook.getEvent) tells the receiver's answer once the attempt is made. */
  messageId: z.string(),
  deliveryId: z.string(),
});
