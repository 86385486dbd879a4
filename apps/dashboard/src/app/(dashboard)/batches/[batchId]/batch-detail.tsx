'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { Details } from '../../../../components/details';
import { Loaded } from '../../../../components/loaded';
import { Message } from '../../../../components/message';
import { formatDate, formatMetadata } from '../../../../lib/format';
import { errorMessage, useTRPC } from '../../../../lib/trpc';
import { BatchStatusBadge, isRunning, percentDone, type BatchStatus } from '../batch-status';

/** How often a running batch's progress is read. */
const POLL_MS = 1_000;

/** Saves text as a file in the browser's downloads. */
function saveFile(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The results CSV (every row with its status so far), read when asked for: it can be large. */
function DownloadResults({ batchId }: { batchId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ busy?: boolean; error?: string }>({});
  async function download() {
    setState({ busy: true });
    try {
      const batch = await queryClient.fetchQuery({ ...trpc.batch.get.queryOptions({ batchId }), staleTime: 0 });
      saveFile(`batch-${batchId}-results.csv`, batch.results, 'text/csv');
      setState({});
    } catch (error) {
      setState({ error: errorMessage(error) });
    }
  }
  return (
    <>
      <div>
        <button type="button" className="secondary" onClick={download} disabled={state.busy}>
          {state.busy ? 'Preparing…' : 'Download the results (CSV)'}
        </button>
      </div>
      <Message kind="error">{state.error}</Message>
    </>
  );
}

function Progress({ batch }: { batch: BatchStatus }) {
  const processed = batch.success + batch.failure;
  return (
    <section className="card stack" aria-labelledby="batch-progress">
      <h2 id="batch-progress">Progress</h2>
      <progress max={batch.count} value={processed} aria-labelledby="batch-progress" aria-describedby="batch-progress-text" />
      <p id="batch-progress-text">
        {processed} of {batch.count} processed ({percentDone(batch)})
      </p>
      <dl className="details">
        <dt>Succeeded</dt>
        <dd data-testid="batch-success">{batch.success}</dd>
        <dt>Failed</dt>
        <dd data-testid="batch-failure">{batch.failure}</dd>
      </dl>
      {/* Announced once, when the batch ends; the bar itself is not read out at every step. */}
      <Message kind="success">{isRunning(batch) ? null : `Finished: ${batch.success} succeeded, ${batch.failure} failed.`}</Message>
      <DownloadResults batchId={batch.batchId} />
      <div className="row">
        <Link href={`/charges?batchId=${batch.batchId}`}>Charges of this batch</Link>
        {batch.failure > 0 && <Link href={`/charges?batchId=${batch.batchId}&status=FAILED`}>Failed charges</Link>}
      </div>
    </section>
  );
}

/** A batch, its progress read again every second while it runs, its counts and its results. */
export function BatchDetail({ batchId }: { batchId: string }) {
  const trpc = useTRPC();
  const status = useQuery(
    trpc.batch.status.queryOptions(
      { batchId },
      { refetchInterval: (query) => (query.state.data && isRunning(query.state.data) ? POLL_MS : false) },
    ),
  );
  return (
    <Loaded query={status}>
      {(batch) => (
        <>
          <div className="page-header">
            <h1>
              {batch.description || 'Batch'} <BatchStatusBadge batch={batch} />
            </h1>
            <Link href="/batches">All batches</Link>
          </div>
          <div className="grid-2">
            <Progress batch={batch} />
            <Details
              title="Details"
              items={[
                ['Batch id', batch.batchId],
                ['Description', batch.description || null],
                ['Transactions', batch.count],
                ['Added', formatDate(batch.dateAdded)],
                ['Metadata', formatMetadata(batch.metadata)],
              ]}
            />
          </div>
        </>
      )}
    </Loaded>
  );
}
