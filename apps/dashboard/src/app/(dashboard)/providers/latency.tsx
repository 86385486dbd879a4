'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../lib/trpc';

/** Simulated latency by provider id (simulated acquirers only). */
export function useSimulatedLatency() {
  const trpc = useTRPC();
  const query = useQuery(trpc.dashboard.simulatedLatency.queryOptions());
  return new Map((query.data ?? []).map((l) => [l.providerId, l]));
}

export function latencyText(latency: { minMs: number; maxMs: number; timeoutMs: number } | undefined): string {
  return latency ? `${latency.minMs}–${latency.maxMs} ms (timeout ${latency.timeoutMs / 1000} s)` : '—';
}
