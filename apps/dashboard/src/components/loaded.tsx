import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from '../lib/trpc';
import { Message } from './message';

/** What a query has: its error (announced), "Loading…", or its data rendered. */
export function Loaded<T>({ query, children }: { query: UseQueryResult<T, unknown>; children: (data: T) => ReactNode }) {
  if (query.error) return <Message kind="error">{errorMessage(query.error)}</Message>;
  if (query.data === undefined) return <p role="status">Loading…</p>;
  return children(query.data);
}
