import { staffOperation } from '../../trpc';
import { input, output } from './simulated-latency.schema';

/** How slow each simulated acquirer is made to answer, and how long the gateway waits for it. */
export const simulatedLatency = staffOperation(input, output).query(({ ctx }) => ctx.services.dashboard.simulatedLatency(ctx.account));
