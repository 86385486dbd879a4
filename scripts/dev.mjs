#!/usr/bin/env node
// The project's entry point on a machine that has only Node.js and npm:
//   npm start        install what is missing, build, start the gateway and the dashboard
//   npm test         install what is missing (Chromium too), typecheck, run every test
//   npm run bench    install what is missing, build, run the benchmarks
// pnpm is installed into .tools/ (nothing global); dependencies come from the npm registry only.
import { spawn, spawnSync } from 'node:child_process';
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

/** The browser tests drive Debian's Chromium: installed with apt when missing and allowed (root). */
function chromium() {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (existsSync(path)) return;
  if (process.getuid?.() !== 0) {
    console.warn(`→ ${path} is missing: install Chromium (apt-get install -y chromium) for the browser tests`);
    return;
  }
  console.log('→ installing Chromium (apt-get)');
  const apt = { env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } };
  must('apt-get', ['update', '-qq'], apt);
  must('apt-get', ['install', '-y', '-qq', 'chromium'], apt);
}

/** Both apps, side by side: Ctrl-C stops both, and when one stops the other is stopped too. */
function startApps() {
  const host = process.env.HOST || '127.0.0.1';
  const dashboard = { ...env, GATEWAY_URL: process.env.GATEWAY_URL || `http://${host}:${process.env.PORT || 3000}` };
  const children = [
    spawn(process.execPath, ['--enable-source-maps', join('apps', 'gateway', 'dist', 'main.js')], { cwd: root, stdio: 'inherit', env }),
    spawn(process.execPath, ['server.mjs', '-H', host, '-p', process.env.DASHBOARD_PORT || '3001'], {
      cwd: join(root, 'apps', 'dashboard'),
      stdio: 'inherit',
      env: dashboard,
    }),
  ];
  const stop = (signal) => children.forEach((child) => child.exitCode === null && child.kill(signal));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
  for (const child of children) {
    child.on('exit', (code) => {
      process.exitCode ||= code ?? 1;
      stop('SIGTERM');
    });
  }
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
if (command === 'test' || command === 'bootstrap') chromium();
const buildApps = ['--filter', '@gateway/gateway', '--filter', '@gateway/dashboard', 'build'];
switch (command) {
  case 'bootstrap':
    break;
  case 'start':
    must(p, buildApps);
    startApps();
    break;
  case 'test': {
    must(p, ['exec', 'prettier', '--check', '--log-level=warn', '**/*.{ts,tsx,mjs}']);
    must(p, ['exec', 'turbo', 'run', 'typecheck', '--output-logs=errors-only']);
    must(p, ['--filter', '@gateway/db', 'migration:create', '--check']);
    must(p, buildApps);
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
