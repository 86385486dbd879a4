import type { NextConfig } from 'next';

const config: NextConfig = {
  // Workspace packages are TypeScript source (card and payment-link rules from @gateway/core).
  transpilePackages: ['@gateway/core'],
  // Type-checked once by `turbo run typecheck` (npm test), not a second time by every build.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  reactStrictMode: true,
  // Neither the dashboard nor the payment page may be framed by another site (clickjacking).
  headers: async () => [
    {
      source: '/:path*',
      headers: [
        { key: 'X-Frame-Options', value: 'DENY' },
        { key: 'X-Content-Type-Options', value: 'nosniff' },
      ],
    },
  ],
};

export default config;
