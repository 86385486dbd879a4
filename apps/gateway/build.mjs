// Bundles the gateway and our workspace packages (TypeScript sources, including the generated
// Prisma client) into dist/; third-party packages stay in node_modules.
import { build } from 'esbuild';

const ours = /^@gateway\//;

await build({
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-node-modules',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (ours.test(args.path) ? undefined : { path: args.path, external: true }));
      },
    },
  ],
});
