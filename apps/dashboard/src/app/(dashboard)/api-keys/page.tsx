import type { Metadata } from 'next';
import { ApiKeys } from './api-keys';
import { WalletCharges } from './wallet-charges';

export const metadata: Metadata = { title: 'API keys' };

export default function ApiKeysPage() {
  return (
    <>
      <h1>API keys</h1>
      <ApiKeys />
      <WalletCharges />
    </>
  );
}
