import { ApiError } from '@gateway/core';
import type { Account } from '@gateway/db';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { z } from 'zod';
import { bindInput, refuseCardNumber } from './binding';
import { header, type Context } from './context';
import { renderApiError, toApiError, trpcCodeOf } from './errors';
import { isDecline, quietDecline } from './services/limits/card-testing';

export type Meta = OpenApiMeta<{
  /** 201 for operations that create a resource the spec answers with 201. */
  successStatus?: 200 | 201;
  /** POSTs that create: honour the Idempotency-Key header. */
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

const withSuccessStatus = t.middleware(({ ctx, meta, next }) => {
  ctx.response.status = meta?.successStatus ?? 200;
  return next();
});

/** Records who called and with which key: a header that did not authenticate the call never counts. */
function authenticate(ctx: Context, account: Account, auth: 'public' | 'secret') {
  ctx.account = account;
  ctx.auth = auth;
  return { ctx: { account, auth } };
}

const requireSecretKey = t.middleware(async ({ ctx, next }) => {
  if (ctx.account) return next(authenticate(ctx, ctx.account, 'secret'));
  const key = header(ctx, 'x-secretkey');
  const account = key ? await ctx.services.accounts.bySecretKey(key) : null;
  if (!account) throw new ApiError('InvalidAuthentication');
  return next(authenticate(ctx, account, 'secret'));
});

const requirePublicKey = t.middleware(async ({ ctx, next }) => {
  const key = header(ctx, 'x-publickey');
  const account = key ? await ctx.services.accounts.byPublicKey(key) : null;
  if (!account) throw new ApiError('InvalidAuthentication', { message: 'Invalid or missing public key' });
  return next(authenticate(ctx, account, 'public'));
});

/** The public key from a browser, or the secret key from a merchant's back end (the .NET SDK's wallet charge). */
const requireEitherKey = t.middleware(async ({ ctx, next }) => {
  const secret = header(ctx, 'x-secretkey');
  const key = secret || header(ctx, 'x-publickey');
  const account = key ? await (secret ? ctx.services.accounts.bySecretKey(key) : ctx.services.accounts.byPublicKey(key)) : null;
  if (!account) throw new ApiError('InvalidAuthentication', { message: 'Invalid or missing secret or public key' });
  return next(authenticate(ctx, account, secret ? 'secret' : 'public'));
});

const requireStaff = t.middleware(({ ctx, next }) => {
  if (!ctx.staff || !ctx.account) throw new ApiError('InvalidAuthentication', { message: 'Sign in to the dashboard' });
  return next({ ctx: { account: ctx.account, staff: ctx.staff } });
});

/** Binds wire input (key case, aliases, nulls…) to the schema before Zod validates it. */
function bindTo(schema: z.ZodType) {
  return t.middleware(async ({ getRawInput, next }) => {
    const raw = await getRawInput();
    const bound = bindInput(schema, raw ?? {});
    return next({ getRawInput: async () => bound });
  });
}

/** Whether the caller authenticated with the public key (an either-key operation prefers a valid secret key). */
export const byPublicKey = (ctx: Pick<Context, 'auth'>) => ctx.auth === 'public';

/**
 * Card testing (services/limits/card-testing.ts): a public-key call is counted, and a decline
 * reserved, before it runs (refused past a limit); a decline keeps its reservation and is told only
 * as a decline, any other outcome gives it back. The secret key's
 * calls are not limited here: merchants and SDK test suites reuse test cards.
 */
const cardTesting = t.middleware(async ({ ctx, getRawInput, next }) => {
  if (!ctx.account || !byPublicKey(ctx)) return next();
  const guard = ctx.services.cardTesting;
  const attempt = { account: ctx.account, address: ctx.request.clientAddress, card: await guard.cardOf(ctx.account, await getRawInput()) };
  await guard.admit(attempt);
  let declined = false;
  try {
    const result = await next();
    const error = result.ok ? undefined : toApiError(result.error);
    if (!isDecline(error)) return result;
    declined = true;
    throw quietDecline(error);
  } finally {
    await guard.settle(attempt, declined);
  }
});

const idempotency = t.middleware(async ({ ctx, meta, getRawInput, next }) => {
  const key = header(ctx, 'idempotency-key');
  if (!meta?.idempotent || !key || !ctx.account) return next();
  refuseCardNumber('Idempotency-Key', key);
  const { account, services, request } = ctx;
  const claim = await services.idempotency.claim(account.id, key, request, await getRawInput());
  if (claim.kind === 'replay') {
    if (claim.error) throw claim.error;
    return { ok: true as const, data: claim.data, marker: undefined as never, ctx };
  }
  const result = await next();
  await services.idempotency.settle(account.id, key, result.ok ? { data: result.data } : { error: toApiError(result.error) });
  return result;
});

const base = t.procedure.use(withSuccessStatus);

/** An operation authenticated by the account's secret key (x-secretkey). */
export function secretOperation<I extends z.ZodType, O extends z.ZodType>(meta: Meta, input: I, output: O) {
  return base.meta(meta).use(requireSecretKey).use(bindTo(input)).use(idempotency).input(input).output(output);
}

/** An operation a browser may call with the account's public key (x-publickey). */
export function publicKeyOperation<I extends z.ZodType, O extends z.ZodType>(meta: Meta, input: I, output: O) {
  return base
    .meta({ ...meta, browser: true })
    .use(requirePublicKey)
    .use(bindTo(input))
    .use(cardTesting)
    .use(idempotency)
    .input(input)
    .output(output);
}

/** Like publicKeyOperation, but a back end may call it with its secret key instead. */
export function eitherKeyOperation<I extends z.ZodType, O extends z.ZodType>(meta: Meta, input: I, output: O) {
  return base
    .meta({ ...meta, browser: true })
    .use(requireEitherKey)
    .use(bindTo(input))
    .use(cardTesting)
    .use(idempotency)
    .input(input)
    .output(output);
}

/** An operation anyone may call (the hosted payment page; signing in to the dashboard). */
export function publicOperation<I extends z.ZodType, O extends z.ZodType>(meta: Meta, input: I, output: O) {
  return base.meta(meta).use(bindTo(input)).input(input).output(output);
}

/** A dashboard operation, over tRPC only (no REST route): needs a staff member's session. */
export function staffOperation<I extends z.ZodType, O extends z.ZodType>(input: I, output: O) {
  return base.use(requireStaff).input(input).output(output);
}
