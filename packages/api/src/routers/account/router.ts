import { router } from '../../trpc';
import { keys } from './keys';
import { rotateSecretKey } from './rotate-secret-key';
import { setWalletChargeSettings, walletChargeSettings } from './wallet-charges';

/** The account's own settings, for the dashboard (tRPC only). */
export const accountRouter = router({ keys, rotateSecretKey, walletChargeSettings, setWalletChargeSettings });
