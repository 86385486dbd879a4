import { ApiError, newId, notFound } from '@gateway/core';
import type { Account, Customer, Prisma } from '@gateway/db';
import type { CustomerFields, CustomerView } from '../schemas/customer';
import type { NewPaymentMethod, PaymentMethodView } from '../schemas/payment-method';
import { dateRange, paging, textSearch } from '../schemas/search';
import { customerSummary } from './charges/view';
import type { Dependencies } from './deps';
import { bindKey, type HeldKey } from './idempotency';
import type { PaymentMethodService } from './payment-methods';
import { paymentMethodInclude, toPaymentMethodSummary, toPaymentMethodView, type PaymentMethodRecord } from './payment-methods/view';
import { openWebhook, sealWebhook, type WebhookService } from './webhooks';

export type NewCustomer = CustomerFields & { metadata?: Record<string, string>; webhook?: { url: string; authorization?: string } };

export type CustomerChanges = Partial<Pick<CustomerFields, 'email' | 'phone' | 'address' | 'reference' | 'firstName' | 'lastName'>> & {
  defaultPaymentMethodId?: string;
};

export type CustomerSort = 'None' | 'Date' | 'Reference' | 'Email' | 'Name';

export type CustomerEventType = 'customer.created' | 'customer.updated' | 'customer.deleted';

export interface CustomerSearch {
  reference?: string;
  email?: string;
  search?: string;
  customerId?: string;
  paymentMethodId?: string;
  includeRemoved?: boolean;
  sortBy?: CustomerSort;
  addedAfter?: Date;
  addedBefore?: Date;
  limit?: number;
  skip?: number;
}

function order(sortBy: CustomerSort | undefined): Prisma.CustomerOrderByWithRelationInput[] {
  const newestFirst: Prisma.CustomerOrderByWithRelationInput[] = [{ dateAdded: 'desc' }, { id: 'desc' }];
  switch (sortBy) {
    case 'Reference':
      return [{ reference: 'asc' }, ...newestFirst];
    case 'Email':
      return [{ email: 'asc' }, ...newestFirst];
    case 'Name':
      return [{ lastName: 'asc' }, { firstName: 'asc' }, ...newestFirst];
    default:
      return newestFirst;
  }
}

function toCustomerView(customer: Customer, defaultMethod: PaymentMethodRecord | undefined): CustomerView {
  const address = customer.address as Partial<Record<string, string>> | null;
  return {
    ...customerSummary(customer),
    defaultPaymentMethod: defaultMethod ? toPaymentMethodSummary(defaultMethod) : null,
    ip: customer.ip,
    address: address && {
      line1: address.line1 ?? null,
      line2: address.line2 ?? null,
      city: address.city ?? null,
      country: address.country ?? null,
      postalCode: address.postalCode ?? null,
      state: address.state ?? null,
    },
  };
}

/** Customers: contact details and saved payment methods, one of them the default. Removal is soft. */
export function createCustomerService(
  { db, clock, config }: Dependencies,
  paymentMethods: PaymentMethodService,
  webhooks: Pick<WebhookService, 'record'>,
) {
  /** The account's customer, removed or not: 404 (52) unknown. */
  async function customerOf(account: Account, customerId: string): Promise<Customer> {
    const customer = await db.customer.findFirst({ where: { id: customerId, accountId: account.id } });
    if (!customer) throw notFound('InvalidCustomerId', 'Customer');
    return customer;
  }

  /** A customer that may be changed: 72 once removed. */
  async function activeCustomer(account: Account, customerId: string): Promise<Customer> {
    const customer = await customerOf(account, customerId);
    if (customer.dateRemoved) throw new ApiError('InvalidCustomerIdRemoved', { message: 'The customer was removed' });
    return customer;
  }

  /** Customers with their default payment methods, read in one query (in `tx` when given). */
  async function views(customers: Customer[], tx: Prisma.TransactionClient = db): Promise<CustomerView[]> {
    const ids = customers.flatMap((c) => (c.defaultPaymentMethodId ? [c.defaultPaymentMethodId] : []));
    const methods = ids.length > 0 ? await tx.paymentMethod.findMany({ where: { id: { in: ids } }, include: paymentMethodInclude }) : [];
    const byId = new Map(methods.map((m) => [m.id, m]));
    return customers.map((c) => toCustomerView(c, byId.get(c.defaultPaymentMethodId ?? '')));
  }

  const view = async (customer: Customer, tx?: Prisma.TransactionClient) => (await views([customer], tx))[0] as CustomerView;

  /**
   * The customer as answered after a change, recorded as a webhook event in the transaction that
   * made the change (to the account's subscriptions and the customer's own webhook).
   */
  async function recordEvent(tx: Prisma.TransactionClient, customerId: string, eventType: CustomerEventType): Promise<CustomerView> {
    const customer = await tx.customer.findUniqueOrThrow({ where: { id: customerId } });
    const data = await view(customer, tx);
    const webhook = openWebhook(config.keyring, 'Customer', customer.id, customer.webhook);
    await webhooks.record(tx, { accountId: customer.accountId, type: 'Customer', eventType, resourceId: customer.id, data, webhook });
    return data;
  }

  return {
    /** A customer with its first payment method, which is its default. */
    async create(account: Account, customer: NewCustomer, source: NewPaymentMethod, heldKey?: HeldKey): Promise<CustomerView> {
      const customerId = newId();
      const method = await paymentMethods.prepare(account, source, { customerId, id: heldKey?.resourceId });
      return db.$transaction(async (tx) => {
        await tx.customer.create({
          data: {
            id: customerId,
            accountId: account.id,
            reference: customer.reference ?? null,
            firstName: customer.firstName ?? null,
            lastName: customer.lastName ?? null,
            email: customer.email ?? null,
            phone: customer.phone ?? null,
            ip: customer.ip ?? null,
            address: customer.address,
            metadata: customer.metadata,
            webhook: sealWebhook(config.keyring, 'Customer', customerId, customer.webhook),
            defaultPaymentMethodId: method.id,
            dateAdded: clock.now(),
          },
        });
        await paymentMethods.save(tx, account, method, `customer:${customerId}`);
        await bindKey(tx, heldKey, { type: 'customer', id: customerId });
        await paymentMethods.recordEvent(tx, method.id, 'paymentmethod.created');
        return recordEvent(tx, customerId, 'customer.created');
      });
    },

    /** A payment method for an existing customer; it becomes the default only with setDefault. */
    async addPaymentMethod(
      account: Account,
      customerId: string,
      source: NewPaymentMethod,
      setDefault = false,
      heldKey?: HeldKey,
    ): Promise<PaymentMethodView> {
      const customer = await activeCustomer(account, customerId);
      const row = await paymentMethods.prepare(account, source, { customerId: customer.id, id: heldKey?.resourceId });
      return db.$transaction(async (tx) => {
        await paymentMethods.save(tx, account, row);
        await bindKey(tx, heldKey, { type: 'payment-method', id: row.id });
        if (setDefault) {
          await tx.customer.update({ where: { id: customer.id }, data: { defaultPaymentMethodId: row.id } });
          await recordEvent(tx, customer.id, 'customer.updated');
        }
        return paymentMethods.recordEvent(tx, row.id, 'paymentmethod.created');
      });
    },

    /** A removed customer is still answered, with dateRemoved and email and phone "deleted". */
    async get(account: Account, customerId: string): Promise<CustomerView> {
      return view(await customerOf(account, customerId));
    },

    /** The customer's payment methods that are not removed, newest first. */
    async listPaymentMethods(account: Account, customerId: string): Promise<PaymentMethodView[]> {
      const customer = await customerOf(account, customerId);
      const methods = await db.paymentMethod.findMany({
        where: { customerId: customer.id, dateRemoved: null },
        include: paymentMethodInclude,
        orderBy: [{ dateAdded: 'desc' }, { id: 'desc' }],
      });
      return methods.map(toPaymentMethodView);
    },

    /** Partial: absent fields stay. A new default must be an active payment method of this customer. */
    async update(account: Account, customerId: string, changes: CustomerChanges): Promise<CustomerView> {
      const customer = await activeCustomer(account, customerId);
      if (changes.defaultPaymentMethodId !== undefined) {
        const method = await paymentMethods.activeMethod(account, changes.defaultPaymentMethodId);
        if (method.customerId !== customer.id) {
          throw new ApiError('InvalidPaymentMethodId', { message: 'The payment method belongs to another customer' });
        }
      }
      const { email, phone, address, reference, firstName, lastName, defaultPaymentMethodId } = changes;
      return db.$transaction(async (tx) => {
        await tx.customer.update({
          where: { id: customer.id },
          data: { email, phone, address, reference, firstName, lastName, defaultPaymentMethodId },
        });
        return recordEvent(tx, customer.id, 'customer.updated');
      });
    },

    /**
     * Soft delete of the customer and every payment method it has. With GatewayDelete the
     * providers forget the cards first; a repeated delete after a failure finds them gone, which is fine.
     */
    async remove(account: Account, customerId: string, gatewayDelete = true): Promise<CustomerView> {
      const customer = await activeCustomer(account, customerId);
      const methods = await db.paymentMethod.findMany({
        where: { customerId: customer.id, dateRemoved: null },
        include: paymentMethodInclude,
      });
      if (gatewayDelete) for (const method of methods) await paymentMethods.forgetAtProvider(method);
      const now = clock.now();
      return db.$transaction(async (tx) => {
        const { count } = await tx.customer.updateMany({ where: { id: customer.id, dateRemoved: null }, data: { dateRemoved: now } });
        if (count === 0) throw new ApiError('InvalidCustomerIdRemoved', { message: 'The customer was removed' });
        const removed = await tx.paymentMethod.findMany({ where: { customerId: customer.id, dateRemoved: null }, select: { id: true } });
        await tx.paymentMethod.updateMany({ where: { customerId: customer.id, dateRemoved: null }, data: { dateRemoved: now } });
        for (const { id } of removed) await paymentMethods.recordEvent(tx, id, 'paymentmethod.deleted');
        return recordEvent(tx, customer.id, 'customer.deleted');
      });
    },

    async search(account: Account, input: CustomerSearch) {
      const where: Prisma.CustomerWhereInput = {
        AND: [
          { accountId: account.id },
          input.includeRemoved ? {} : { dateRemoved: null },
          input.reference !== undefined ? { reference: input.reference } : {},
          input.email !== undefined ? { email: { equals: input.email, mode: 'insensitive' } } : {},
          input.customerId !== undefined ? { id: input.customerId } : {},
          input.paymentMethodId !== undefined ? { paymentMethods: { some: { id: input.paymentMethodId } } } : {},
          ...textSearch(input.search, ['firstName', 'lastName', 'email']),
          dateRange(input),
        ],
      };
      const { take, skip } = paging(input);
      const [count, customers] = await Promise.all([
        db.customer.count({ where }),
        db.customer.findMany({ where, orderBy: order(input.sortBy), take, skip }),
      ]);
      return { limit: take, skip, count, customers: await views(customers) };
    },
  };
}

export type CustomerService = ReturnType<typeof createCustomerService>;
