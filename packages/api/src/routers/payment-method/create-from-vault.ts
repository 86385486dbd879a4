import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-from-vault.schema';

export const createFromVault = secretOperation(meta, input, output).mutation(({ ctx, input: method }) =>
  ctx.services.paymentMethods.create(ctx.account, { kind: 'vault', ...method }, ctx.heldKey),
);
