import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { Providers } from '../lib/trpc';
import './globals.css';

export const metadata: Metadata = { title: { default: 'Payment gateway', template: '%s · Payment gateway' } };
export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

/** Rendered for each request: a page built ahead of time could not carry the request's CSP nonce (proxy.ts). */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
