'use client';

import { useEffect, useRef } from 'react';
import { errorMessage } from '../lib/trpc';
import { Message } from './message';

/**
 * A form's error answered by the gateway: announced, and focused as it arrives, so that keyboard
 * and screen-reader users land on it rather than on the page's body. The field at fault is marked
 * by the form (fieldErrors gives the gateway's details by field).
 */
export function ServerError({ error }: { error: unknown }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) ref.current?.focus();
  }, [error]);
  return (
    <Message kind="error" ref={ref}>
      {error ? errorMessage(error) : null}
    </Message>
  );
}
