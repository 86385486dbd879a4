#!/usr/bin/env node
// The project's entry point on a machine that has only Node.js and npm:
//   npm start        install what is missing, build, start the gateway
//   npm test         install what is missing, typecheck, run every test
//   npm run bench    install what is missing, build, run the benchmarks
// pnpm is installed into .tools/ (nothing global); dependencies come from the npm registry only.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PNPM_VERSION = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
const tools = join(root, '.tools', 'node_modules', '.bin');
// Tools started from here (turbo, package scripts) find the pnpm this script installed.
const env = {
  ...process.env,
  PATH: `${tools}${delimiter}${process.env.PATH ?? ''}`,
  TURBO_TELEMETRY_DISABLED: '1',
  NEXT_TELEMETRY_DISABLED: '1',
  TURBO_NO_UPDATE_NOTIFIER: '1',
};

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function must(command, args, options) {
  const status = run(command, args, options);
  if (status !== 0) {
    console.error(`\n✗ ${command} ${args.join(' ')} failed (exit ${status})`);
    process.exit(status);
  }
}

function pnpm() {
  const local = join(tools, 'pnpm');
  if (existsSync(local)) return local;
  const found = spawnSync('pnpm', ['--version'], { encoding: 'utf8', env });
  if (found.status === 0 && found.stdout.trim() === PNPM_VERSION) return 'pnpm';
  console.log(`→ installing pnpm ${PNPM_VERSION} into .tools/`);
  must('npm', ['install', '--prefix', join(root, '.tools'), '--no-audit', '--no-fund', '--loglevel=error', `pnpm@${PNPM_VERSION}`]);
  return local;
}

function newer(file, than) {
  return existsSync(file) && existsSync(than) && statSync(file).mtimeMs >= statSync(than).mtimeMs;
}

function bootstrap() {
  const p = pnpm();
  const lock = join(root, 'pnpm-lock.yaml');
  if (!newer(join(root, 'node_modules', '.modules.yaml'), lock)) {
    console.log('→ installing dependencies');
    must(p, ['install', '--frozen-lockfile', '--prefer-offline']);
  }
  const client = join(root, 'packages', 'db', 'src', 'generated', 'prisma', 'client.ts');
  if (!newer(client, join(root, 'prisma', 'schema.prisma'))) {
    console.log('→ generating the Prisma client');
    must(p, ['--filter', '@gateway/db', 'generate']);
  }
  return p;
}

const command = process.argv[2] ?? 'start';
const p = bootstrap();
switch (command) {
  case 'bootstrap':
    break;
  case 'start':
    must(p, ['--filter', '@gateway/gateway', 'build']);
    process.exit(run(process.execPath, ['--enable-source-maps', join('apps', 'gateway', 'dist', 'main.js')]));
    break;
  case 'test': {
    must(p, ['exec', 'prettier', '--check', '--log-level=warn', '**/*.{ts,tsx,mjs}']);
    must(p, ['exec', 'turbo', 'run', 'typecheck', '--output-logs=errors-only']);
    must(p, ['--filter', '@gateway/db', 'migration:create', '--check']);
    must(p, ['--filter', '@gateway/gateway', 'build']);
    // Unit and integration tests, then end-to-end tests against the built apps; both always run.
    const unitAndIntegration = run(p, ['exec', 'vitest', 'run']);
    const endToEnd = run(p, ['--filter', '@gateway/e2e', 'test']);
    process.exit(unitAndIntegration || endToEnd);
    break;
  }
  case 'bench':
    must(p, ['--filter', '@gateway/gateway', 'build']);
    process.exit(run(p, ['--filter', '@gateway/gateway', 'bench']));
    break;
  default:
    console.error(`unknown command ${command}: use start, test, bench or bootstrap`);
    process.exit(2);
}
