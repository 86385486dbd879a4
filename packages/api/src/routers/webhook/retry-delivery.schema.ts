import { z } from 'zod';
import { webhookDeliveryOutput } from '../../schemas/webhook';

export const input = z.object({ deliveryId: z.string().min(1).max(64) });
export const output = webhookDeliveryOutput;
