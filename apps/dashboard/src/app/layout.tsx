import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { Providers } from '../lib/trpc';
import './globals.css';

export const metadata: Metadata = { title: { default: 'Payment gateway', template: '%s · Payment gateway' } };
export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
