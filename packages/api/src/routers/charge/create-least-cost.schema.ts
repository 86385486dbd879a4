import { cardChargeInput, chargeOutput } from '../../schemas/charge';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/charge/card/least_cost',
    tags: ['Charge'],
    summary: 'Charge a card through the cheapest eligible provider',
    description:
      'Providers are ranked by their fee schedules; a retryable failure or timeout moves on to the next cheapest and is recorded in failedAttempts.',
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = cardChargeInput;
export const output = chargeOutput;
