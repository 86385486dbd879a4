import { staffOperation } from '../../trpc';
import { input, output } from './keys.schema';

/** The account's API keys as staff may see them: the public key, and the end of the secret key. */
export const keys = staffOperation(input, output).query(({ ctx: { account } }) => ({
  accountName: account.name,
  publicKey: account.publicKey,
  secretKeyHint: account.secretKeyHint,
}));
