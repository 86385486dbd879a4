import type { AppRouter } from '@gateway/api';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';

export type Inputs = inferRouterInputs<AppRouter>;
export type Outputs = inferRouterOutputs<AppRouter>;
export type Charge = Outputs['charge']['get'];
