import { z } from 'zod';
import { chargeFields, customerSummaryOutput } from './charge';
import { nameInput } from './common';
import { paymentMethodSummaryOutput, type Shape } from './payment-method';

/** The customer's own fields (spec: "Shared customer input fields"). */
export const customerFields = {
  email: chargeFields.email,
  phone: chargeFields.phone,
  reference: chargeFields.reference,
  firstName: nameInput.optional(),
  lastName: nameInput.optional(),
  ip: chargeFields.ip,
  address: chargeFields.address,
};
export type CustomerFields = Shape<typeof customerFields>;

const nullableString = z.string().nullable();

export const customerOutput = customerSummaryOutput
  .extend({
    defaultPaymentMethod: paymentMethodSummaryOutput.nullable(),
    ip: nullableString,
    address: z
      .object({
        line1: nullableString,
        line2: nullableString,
        city: nullableString,
        country: nullableString,
        postalCode: nullableString,
        state: nullableString,
      })
      .nullable(),
  })
  .meta({ id: 'Customer' });

export type CustomerView = z.infer<typeof customerOutput>;

export const customerListOutput = z
  .object({ limit: z.number().int(), skip: z.number().int(), count: z.number().int(), customers: z.array(customerOutput) })
  .meta({ id: 'CustomerList' });
