import { request, type Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startChildGateway, type ChildGateway } from '../bench/child-gateway';

export const GATEWAY_DIR = fileURLToPath(new URL('..', import.meta.url));
export const MAIN_TS = fileURLToPath(new URL('../src/main.ts', import.meta.url));

export interface WatchedGateway extends ChildGateway {
  /** Everything the gateway's processes wrote, stdout and stderr, as it came. */
  output: string[];
  /** Its JSON log lines, parsed. */
  logLines(): Array<Record<string, unknown>>;
  /** Resolves when the child has exited, with when and how. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** The gateway's src/main.ts in a child process (through tsx), as deployed, with its output kept. */
export async function startWatchedGateway(options: {
  databaseUrl: string;
  masterKeys: string;
  env: Record<string, string>;
  workers?: number;
}): Promise<WatchedGateway> {
  const output: string[] = [];
  const gateway = await startChildGateway({
    // `--import tsx` resolves from the working directory: this package has tsx.
    args: ['--import', 'tsx', MAIN_TS],
    cwd: GATEWAY_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
    // tsx compiles the gateway in every process: slow on a busy machine.
    startTimeoutMs: 180_000,
    ...options,
  });
  // What the child wrote during start-up waits in its pipes until read.
  const { child } = gateway;
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const logLines = () =>
    output
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { ...gateway, output, logLines, exited };
}

export type Outcome =
  | { kind: 'answer'; status: number; body: Record<string, unknown>; connection: string | undefined; at: number }
  /** The connection was refused: the gateway no longer listened. */
  | { kind: 'refused' }
  /** The connection was closed under the request: `reused` tells whether it was a kept-alive one. */
  | { kind: 'reset'; reused: boolean; code: string | undefined };

/** One POST over `agent` (keep-alive or not), classified as an answer, a refused connection or a reset one. */
export function post(agent: Agent, url: string, headers: Record<string, string>, body: unknown): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        // An answer cut short fails to parse, and fails the test.
        resolve({
          kind: 'answer',
          status: res.statusCode ?? 0,
          body: JSON.parse(text),
          connection: res.headers.connection,
          at: Date.now(),
        });
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'reset', reused: req.reusedSocket, code: error.code }),
    );
    req.end(JSON.stringify(body));
  });
}
