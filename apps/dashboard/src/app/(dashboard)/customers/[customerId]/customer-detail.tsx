'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { CopyButton } from '../../../../components/copy-button';
import { DataTable } from '../../../../components/data-table';
import { Details } from '../../../../components/details';
import { Loaded } from '../../../../components/loaded';
import { formatDate } from '../../../../lib/format';
import { useTRPC } from '../../../../lib/trpc';
import type { Outputs } from '../../../../lib/types';

type PaymentMethod = Outputs['customer']['listPaymentMethods'][number];

function describe(method: PaymentMethod): string {
  if (method.card) return `${method.card.type ?? 'Card'} ${method.card.cardNumber}, expires ${method.card.expiryDate ?? '—'}`;
  if (method.bankPayment) return `Account ${method.bankPayment.accountNumber ?? ''} (${method.bankPayment.bankCode ?? ''})`;
  return method.payTo ? `PayTo ${method.payTo.payerName}` : method.type;
}

/** A customer, their saved payment methods, and a link to their charges. */
export function CustomerDetail({ customerId }: { customerId: string }) {
  const trpc = useTRPC();
  const customer = useQuery(trpc.customer.get.queryOptions({ customerId }));
  const methods = useQuery(trpc.customer.listPaymentMethods.queryOptions({ customerId }));
  return <Loaded query={customer}>{(c) => <Loaded query={methods}>{(saved) => <CustomerView c={c} methods={saved} />}</Loaded>}</Loaded>;
}

function CustomerView({ c, methods }: { c: Outputs['customer']['get']; methods: PaymentMethod[] }) {
  const defaultId = c.defaultPaymentMethod?.paymentMethodId;
  return (
    <>
      <div className="page-header">
        <h1>{[c.firstName, c.lastName].filter(Boolean).join(' ') || 'Customer'}</h1>
        <Link href={`/charges?customerId=${c.customerId}`}>Charges of this customer</Link>
      </div>
      <Details
        title="Details"
        items={[
          ['Customer id', c.customerId],
          ['Email', c.email],
          ['Phone', c.phone],
          ['Reference', c.reference],
          [
            'Address',
            c.address &&
              [c.address.line1, c.address.line2, c.address.city, c.address.state, c.address.postalCode, c.address.country]
                .filter(Boolean)
                .join(', '),
          ],
          ['Added', formatDate(c.dateAdded)],
          ['Removed', c.dateRemoved && formatDate(c.dateRemoved)],
        ]}
      />
      <section className="card" aria-labelledby="customer-methods">
        <h2 id="customer-methods">Saved payment methods</h2>
        <DataTable
          caption="Payment methods"
          rows={methods}
          rowKey={(m) => m.paymentMethodId}
          columns={[
            { header: 'Payment method', cell: (m) => describe(m) },
            {
              header: 'Id',
              cell: (m) => (
                <span className="row">
                  <code>{m.paymentMethodId}</code>
                  <CopyButton text={m.paymentMethodId} />
                </span>
              ),
            },
            { header: 'Provider', cell: (m) => m.provider?.name ?? '—' },
            { header: 'Added', cell: (m) => formatDate(m.dateAdded) },
            { header: 'Default', cell: (m) => (m.paymentMethodId === defaultId ? <span className="badge good">Default</span> : '') },
            { header: 'Charges', cell: (m) => <Link href={`/charges?paymentMethodId=${m.paymentMethodId}`}>Charges</Link> },
          ]}
        />
      </section>
    </>
  );
}
