'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../lib/trpc';

/**
 * The answer to a test delivery, from its delivery log: asked again every half second until the
 * attempt is logged (the delivery jobs make it within a second or two, or the timeout).
 */
export function TestDeliveryAnswer({ messageId, url }: { messageId: string; url: string }) {
  const trpc = useTRPC();
  const event = useQuery({
    ...trpc.webhook.getEvent.queryOptions({ messageId }),
    refetchInterval: (query) => ((query.state.data?.deliveries[0]?.attempts ?? 0) > 0 ? false : 500),
  });
  const delivery = event.data?.deliveries[0];
  const attempt = delivery?.attemptLog.at(-1);
  if (!attempt) return <p>Sending a test event to {url}…</p>;
  const answered = attempt.statusCode !== null;
  return (
    <div className={`message ${delivery?.status === 'DELIVERED' ? 'success' : 'error'}`}>
      <p>Test event to {url}:</p>
      <p>
        {answered
          ? `The endpoint answered ${attempt.statusCode} in ${attempt.durationMs} ms.`
          : `No answer: ${attempt.error ?? 'unknown error'}.`}
      </p>
      {attempt.responseExcerpt && (
        <>
          <p>Its answer began:</p>
          <pre className="excerpt">{attempt.responseExcerpt}</pre>
        </>
      )}
    </div>
  );
}
