import { ApiError } from '@gateway/core';
import type { Account } from '@gateway/db';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { z } from 'zod';
import { bindInput, refuseCardNumber } from './binding';
import { header, type Context } from './context';
import { renderApiError, toApiError, trpcCodeOf } from './errors';
import type { HeldKey } from './services/idempotency';
import { isDecline, quietDecline } from './services/limits/card-testing';

export type Meta = OpenApiMeta<{
  /** 201 for operations that create a resource the spec answers with 201. */
  successStatus?: 200 | 201;
  /** Operations that create or move money: honour the Idempotency-Key header. */
  idempotent?: boolean;
  /** Set by publicKeyOperation: browsers call it with the public key, so the HTTP layer allows CORS. */
  browser?: boolean;
}>;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    isDev: false,
    errorFormatter({ shape, error, ctx }) {
      const apiError = toApiError(error);
      const body = renderApiError(apiError, ctx?.request.path ?? '', ctx?.services.config.errorDocsUrl ?? '');
      const code = trpcCodeOf(apiError.http);
      return { ...shape, code: code.number, message: body.message, data: { code: code.key, httpStatus: apiError.http, apiError: body } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** The status a successful answer gets: 201 for the operations that create, by their meta. */
function setSuccessStatus(ctx: Context, meta: Meta | undefined) {
  ctx.response.status = meta?.successStatus ?? 200;
}

const withSuccessStatus = t.middleware(({ ctx, meta, next }) => {
  setSuccessStatus(ctx, meta);
  return next();
});

/** Who called, and with which key: a header that did not authenticate the call never counts. */
interface Caller {
  account: Account;
  auth: 'public' | 'secret';
  /** The Idempotency-Key the call holds, for what it creates to bind (absent without one). */
  heldKey?: HeldKey;
}

async function secretKeyCaller(ctx: Context): Promise<Caller> {
  if (ctx.account) return { account: ctx.account, auth: 'secret' };
  const key = header(ctx, 'x-secretkey');
  const account = key ? await ctx.services.accounts.bySecretKey(key) : null;
  if (!account) throw new ApiError('InvalidAuthentication');
  return { account, auth: 'secret' };
}

async function publicKeyCaller(ctx: Context): Promise<Caller> {
  const key = header(ctx, 'x-publickey');
  const account = key ? await ctx.services.accounts.byPublicKey(key) : null;
  if (!account) throw new ApiError('InvalidAuthentication', { message: 'Invalid or missing public key' });
  return { account, auth: 'public' };
}

/** The public key from a browser, or the secret key from a merchant's back end (the .NET SDK's wallet charge). */
async function eitherKeyCaller(ctx: Context): Promise<Caller> {
  const secret = header(ctx, 'x-secretkey');
  const key = secret || header(ctx, 'x-publickey');
  const account = key ? await (secret ? ctx.services.accounts.bySecretKey(key) : ctx.services.accounts.byPublicKey(key)) : null;
  if (!account) throw new ApiError('InvalidAuthentication', { message: 'Invalid or missing secret or public key' });
  return { account, auth: secret ? 'secret' : 'public' };
}

const requireStaff = t.middleware(({ ctx, next }) => {
  if (!ctx.staff || !ctx.account) throw new ApiError('InvalidAuthentication', { message: 'Sign in to the dashboard' });
  return next({ ctx: { account: ctx.account, staff: ctx.staff } });
});

/** Whether the caller authenticated with the public key (an either-key operation prefers a valid secret key). */
export const byPublicKey = (ctx: Pick<Context, 'auth'>) => ctx.auth === 'public';

/**
 * Card testing (services/limits/card-testing.ts): a public-key call is counted, and a decline
 * reserved, before it runs (refused past a limit); a decline keeps its reservation and is told only
 * as a decline, any other outcome gives it back. The secret key's calls are not limited here:
 * merchants and SDK test suites reuse test cards.
 */
async function guardedAgainstCardTesting<R extends { ok: boolean; error?: unknown }>(
  ctx: Context,
  account: Account,
  input: unknown,
  run: () => Promise<R>,
): Promise<R> {
  const guard = ctx.services.cardTesting;
  const attempt = { account, address: ctx.request.clientAddress, card: await guard.cardOf(account, input) };
  await guard.admit(attempt);
  let declined = false;
  try {
    let error: ApiError;
    try {
      const result = await run();
      if (result.ok) return result;
      error = toApiError(result.error);
      if (!isDecline(error)) return result;
    } catch (thrown) {
      // Thrown, not answered: an Idempotency-Key's replay of an earlier outcome, told the same way.
      error = toApiError(thrown);
      if (!isDecline(error)) throw thrown;
    }
    declined = true;
    throw quietDecline(error);
  } finally {
    await guard.settle(attempt, declined);
  }
}

/**
 * A create honours the Idempotency-Key header (services/idempotency.ts): a repeat answers the first
 * call's outcome; the call itself gets the key it holds, to bind to what it creates.
 */
async function idempotent<R extends { ok: boolean; data?: unknown; error?: unknown }>(
  ctx: Context,
  account: Account,
  { meta, input, output }: { meta: Meta | undefined; input: unknown; output: z.ZodType },
  run: (heldKey?: HeldKey) => Promise<R>,
): Promise<R> {
  const key = header(ctx, 'idempotency-key');
  if (!meta?.idempotent || !key) return run();
  refuseCardNumber('Idempotency-Key', key);
  const { services, request } = ctx;
  const claim = await services.idempotency.claim(account, key, request, input);
  if (claim.kind === 'replay') {
    if (claim.error) throw claim.error;
    // Through the output schema, as the procedure's own answer is: an answer taken from the
    // resource after a crash is exactly the one the request would have given.
    return { ok: true, data: output.parse(claim.data), marker: undefined, ctx } as unknown as R;
  }
  let result: R;
  try {
    result = await run(claim.held);
  } catch (error) {
    await services.idempotency.settle(claim.held, { error: toApiError(error) });
    throw error;
  }
  await services.idempotency.settle(claim.held, result.ok ? { data: result.data } : { error: toApiError(result.error) });
  return result;
}

/**
 * An operation's own middleware, one for all it needs before it runs (tRPC copies its options at
 * every middleware, a cost on every call): the success status, the caller authenticated by
 * `callerOf`, the wire input bound to the schema (key case, aliases, nulls…) before Zod validates
 * it, card testing for a public-key caller, and idempotency for a create.
 */
function operation(schema: z.ZodType, output: z.ZodType, callerOf: (ctx: Context) => Promise<Caller>) {
  return t.middleware(async ({ ctx, meta, getRawInput, next }) => {
    setSuccessStatus(ctx, meta);
    const { account, auth } = await callerOf(ctx);
    ctx.account = account;
    ctx.auth = auth;
    const input = bindInput(schema, (await getRawInput()) ?? {});
    // tRPC's next() takes both at run time; its types offer one or the other.
    const run = (heldKey?: HeldKey) => next({ ctx: { account, auth, heldKey }, getRawInput: async () => input } as { ctx: Caller });
    const once = () => idempotent(ctx, account, { meta, input, output }, run);
    return auth === 'public' ? guardedAgainstCardTesting(ctx, account, input, once) : once();
  });
}

/** An open operation's middleware: the success status and the wire input bound to the schema. */
function openOperation(schema: z.ZodType) {
  return t.middleware(async ({ ctx, meta, getRawInput, next }) => {
    setSuccessStatus(ctx, meta);
    const input = bindInput(schema, (await getRawInput()) ?? {});
    return next({ getRawInput: async () => input });
  });
}

/** An operation authenticated by the account's secret key (x-secretkey). */
export function secretOperation<I extends z.ZodType, O extends z.ZodType>(meta: Meta, input: I, output: O) {
  return t.procedure
    .meta(meta)
    .use(operation(input, output, secretKeyCaller))
    .input(input)
    .output(output);
}

/** An operation a browser may call with the account's public key (x-publickey). */
export function publicKeyOperation<I extends z.ZodType, O extends z.ZodType>(meta: Meta, input: I, output: O) {
  return t.procedure
    .meta({ ...meta, browser: true })
    .use(operation(input, output, publicKeyCaller))
    .input(input)
    .output(output);
}

/** Like publicKeyOperation, but a back end may call it with its secret key instead. */
export function eitherKeyOperation<I extends z.ZodType, O extends z.ZodType>(meta: Meta, input: I, output: O) {
  return t.procedure
    .meta({ ...meta, browser: true })
    .use(operation(input, output, eitherKeyCaller))
    .input(input)
    .output(output);
}

/** An operation anyone may call (the hosted payment page; signing in to the dashboard). */
export function publicOperation<I extends z.ZodType, O extends z.ZodType>(meta: Meta, input: I, output: O) {
  return t.procedure.meta(meta).use(openOperation(input)).input(input).output(output);
}

/** A dashboard operation, over tRPC only (no REST route): needs a staff member's session. */
export function staffOperation<I extends z.ZodType, O extends z.ZodType>(input: I, output: O) {
  return t.procedure.use(withSuccessStatus).use(requireStaff).input(input).output(output);
}
