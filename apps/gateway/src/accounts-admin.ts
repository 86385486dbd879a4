import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { refuseCardNumber, type AccountService } from '@gateway/api';
import { z } from 'zod';

/** What an operator asks of `npm run account` (cli/account.ts), directly or through a running gateway's socket. */
export const accountCommand = z.discriminatedUnion('command', [
  z.object({ command: z.literal('create'), name: z.string().trim().min(1).max(200) }),
  z.object({ command: z.literal('list') }),
  z.object({ command: z.literal('disable'), accountId: z.string().min(1).max(100) }),
]);
export type AccountCommand = z.infer<typeof accountCommand>;

/** The answer, printed as JSON; `error` when the command could not be done. */
export type AccountAnswer = { ok: true; result: unknown } | { ok: false; error: string };

export async function runAccountCommand(accounts: AccountService, command: AccountCommand): Promise<AccountAnswer> {
  switch (command.command) {
    case 'create': {
      // Free text, as on the API: no card number in it.
      refuseCardNumber('name', command.name);
      const { account, secretKey } = await accounts.create(command.name);
      return { ok: true, result: { accountId: account.id, secretKey, publicKey: account.publicKey } };
    }
    case 'list': {
      const rows = await accounts.list();
      return {
        ok: true,
        result: rows.map(({ id, name, publicKey, createdAt, disabledAt }) => ({ accountId: id, name, publicKey, createdAt, disabledAt })),
      };
    }
    case 'disable':
      return (await accounts.disable(command.accountId))
        ? { ok: true, result: { accountId: command.accountId, disabled: true } }
        : { ok: false, error: `No account ${command.accountId}` };
  }
}

/** The socket in the embedded database's folder through which `npm run account` reaches the gateway that holds it. */
export const ACCOUNT_SOCKET = 'accounts.sock';

/**
 * Serves account commands on a Unix socket only the operator can open (mode 0600, made under a
 * 0077 umask so it is never open to others): the embedded database belongs to one process, so
 * while the gateway runs, the command goes through it. One JSON line in, one JSON line out.
 */
export async function serveAccountCommands(path: string, accounts: AccountService): Promise<Server> {
  const server = createServer((socket) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (!text.includes('\n') && text.length < 10_000) return;
      socket.removeAllListeners('data');
      Promise.resolve()
        .then(() => runAccountCommand(accounts, accountCommand.parse(JSON.parse(text.split('\n')[0] ?? ''))))
        .catch((error: unknown): AccountAnswer => ({ ok: false, error: (error as Error).message }))
        .then((answer) => socket.end(`${JSON.stringify(answer)}\n`));
    });
  });
  // The gateway holds the folder's lock: a socket file left here is a dead gateway's.
  rmSync(path, { force: true });
  const umask = process.umask(0o077);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, resolve);
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(path, 0o600);
  return server;
}
