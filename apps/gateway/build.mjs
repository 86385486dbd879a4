// Bundles the gateway (dist/main.js) and the key rotation command (dist/rewrap-keys.js) with
// everything they import, so the build runs with `node dist/main.js` whatever the node_modules
// layout. Packages that load files of their own at run time (PGlite's WebAssembly and data files)
// stay external and are dependencies here.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'src/main.ts', 'rewrap-keys': 'src/cli/rewrap-keys.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  external: ['@electric-sql/pglite', 'pg-native'],
  // Bundled CommonJS code calls require(); give the ES module one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});
