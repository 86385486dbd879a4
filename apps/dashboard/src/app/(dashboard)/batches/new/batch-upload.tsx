'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type ChangeEvent } from 'react';
import { DataTable } from '../../../../components/data-table';
import { Field } from '../../../../components/field';
import { Message } from '../../../../components/message';
import { formatMoney } from '../../../../lib/format';
import { errorMessage, useTRPC } from '../../../../lib/trpc';
import type { Outputs } from '../../../../lib/types';
import { ServerError } from '../../../../components/server-error';

/** The dashboard sends a file in one request (10 MB at most, as JSON); larger batches go through the API. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const HEADER = 'PaymentMethodId,Amount,Currency,Reference';

type Problem = Outputs['batch']['validate']['problems'][number];

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What is wrong with the file, line by line, as the gateway found it. */
function Problems({ file, problems, truncated }: { file: string; problems: Problem[]; truncated: boolean }) {
  return (
    <section className="stack" aria-labelledby="batch-problems">
      <h2 id="batch-problems">Problems in {file}</h2>
      <DataTable
        caption="Problems by line"
        rows={problems}
        rowKey={(p) => `${p.line ?? ''} ${p.field ?? ''} ${p.reason}`}
        columns={[
          { header: 'Line', numeric: true, cell: (p) => p.line ?? '—' },
          { header: 'Column', cell: (p) => p.field ?? '—' },
          { header: 'Problem', cell: (p) => p.reason },
        ]}
      />
      {truncated && <p>Only the first {problems.length} problems are listed.</p>}
    </section>
  );
}

/**
 * A CSV file of charges to saved payment methods: checked by the gateway as soon as it is chosen,
 * every problem shown with its line, and sent only once it has none.
 */
export function BatchUpload() {
  const trpc = useTRPC();
  const router = useRouter();
  const [description, setDescription] = useState('');
  const [file, setFile] = useState<{ name: string; text: string }>();
  const [fileError, setFileError] = useState<string>();
  const [sent, setSent] = useState(false);
  const validate = useMutation(trpc.batch.validate.mutationOptions());
  const create = useMutation(
    trpc.batch.create.mutationOptions({
      onSuccess: (batch) => router.push(`/batches/${batch.batchId}`),
      onError: () => setSent(false),
    }),
  );
  // The gateway's check of the file chosen.
  const check = file && validate.data ? { ...validate.data, file: file.name } : undefined;

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    setFile(undefined);
    validate.reset();
    create.reset();
    setFileError(undefined);
    if (!chosen) return;
    if (chosen.size > MAX_FILE_BYTES) {
      setFileError(`The file is over ${MAX_FILE_BYTES / 1024 / 1024} MB: split it, or send it through the API.`);
      return;
    }
    const text = await chosen.text();
    setFile({ name: chosen.name, text });
    validate.mutate({ batch: text });
  }

  function send() {
    if (!file || !check?.valid || sent) return;
    setSent(true);
    create.mutate({ batch: file.text, count: check.count, description: description.trim() || undefined });
  }

  const problem =
    fileError ??
    (validate.error && errorMessage(validate.error)) ??
    (check && !check.valid
      ? `${check.file} has ${plural(check.problems.length, 'problem')}${check.truncated ? ' or more' : ''}: correct the file and choose it again.`
      : undefined);
  const total = check?.valid ? check.totals.map((t) => formatMoney(t.amount, t.currency)).join(' and ') : undefined;
  const progress = validate.isPending
    ? 'Checking the file…'
    : check?.valid
      ? `${check.file}: ${plural(check.count, 'transaction')}, ready to send.`
      : undefined;
  return (
    <form
      className="card stack"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <Field label="Description" hint="Up to 100 characters, to find the batch again">
        {(props) => <input {...props} value={description} onChange={(event) => setDescription(event.target.value)} maxLength={100} />}
      </Field>
      <Field
        label="CSV file"
        hint={`The header ${HEADER}, then one line per charge to a saved payment method; amounts in the currency's decimals.`}
      >
        {(props) => <input {...props} type="file" accept=".csv,text/csv" aria-invalid={Boolean(problem)} onChange={choose} />}
      </Field>
      <Message kind="error">{problem}</Message>
      <Message kind="success">{progress}</Message>
      {check && !check.valid && <Problems file={check.file} problems={check.problems} truncated={check.truncated} />}
      <ServerError error={create.error} />
      {total && (
        <p>
          Total to charge: <strong>{total}</strong>
        </p>
      )}
      <div>
        <button type="submit" disabled={!check?.valid || sent}>
          {sent ? 'Sending…' : check?.valid ? `Charge ${plural(check.count, 'transaction')}` : 'Charge the transactions'}
        </button>
      </div>
    </form>
  );
}
