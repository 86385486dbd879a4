import type { Logger } from 'pino';

/** What a cluster's primary and workers tell each other (cluster.ts). */
export const STOP_MESSAGE = 'gateway:stop';
export const READY_MESSAGE = 'gateway:ready';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/**
 * One Ctrl-C can arrive twice within milliseconds (the terminal signals the whole process group, and
 * a wrapper such as npm or scripts/dev.mjs forwards it too): a signal this soon after the first is that one.
 */
const SAME_SIGNAL_MS = 500;

/**
 * Runs `stop` once, when `begin` is first called, and exits: 0 when it resolves, 1 when it rejects
 * or has not finished within `deadlineMs`. `abandon` runs before an exit that does not wait for it.
 */
function stopper(logger: Logger, deadlineMs: number, stop: () => Promise<void>, abandon: () => void) {
  let begun = false;
  const exit = (code: number) => {
    if (code !== 0) abandon();
    process.exit(code);
  };
  const begin = (reason: string): boolean => {
    if (begun) return false;
    begun = true;
    logger.info({ reason, deadlineSeconds: deadlineMs / 1000 }, 'stopping');
    setTimeout(() => {
      logger.error({ deadlineSeconds: deadlineMs / 1000 }, 'not stopped within the shutdown timeout: exiting now');
      exit(1);
    }, deadlineMs).unref();
    stop().then(
      () => {
        logger.info('stopped');
        exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'stopping failed');
        exit(1);
      },
    );
    return true;
  };
  return { begin, exit };
}

/**
 * For the process an operator starts: the first SIGINT or SIGTERM stops it gracefully, a second
 * one (half a second later or more) exits at once. Returns `begin`, to stop for another reason.
 */
export function stopOnSignals(logger: Logger, deadlineMs: number, stop: () => Promise<void>, abandon = () => {}) {
  const { begin, exit } = stopper(logger, deadlineMs, stop, abandon);
  let first = 0;
  for (const signal of SIGNALS) {
    process.on(signal, () => {
      if (begin(signal)) first = Date.now();
      else if (Date.now() - first >= SAME_SIGNAL_MS) {
        logger.warn({ signal }, 'second signal: exiting at once');
        exit(1);
      }
    });
  }
  return begin;
}

/**
 * For a cluster worker: it stops when its primary says so, or is gone. Signals are left to the
 * primary, which tells every worker (Ctrl-C signals every process of the terminal's group).
 */
export function stopWithPrimary(logger: Logger, deadlineMs: number, stop: () => Promise<void>): void {
  const { begin } = stopper(logger, deadlineMs, stop, () => {});
  for (const signal of SIGNALS) process.on(signal, () => logger.debug({ signal }, 'signal left to the primary'));
  process.on('message', (message) => message === STOP_MESSAGE && begin('told by the primary'));
  process.on('disconnect', () => begin('the primary is gone'));
}
