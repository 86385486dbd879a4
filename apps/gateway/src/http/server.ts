import { STATUS_CODES, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { openApiDocument, renderApiError, type Services } from '@gateway/api';
import { ApiError, ERRORS } from '@gateway/core';
import type { Logger } from 'pino';
import { maskDigits } from '../logger';
import { createCors } from './cors';
import { errorCodesPage } from './error-codes-page';
import type { TrustedProxies } from './client';
import type { Metrics } from './metrics';
import { createNotificationHandler, notificationProviderId } from './notification';
import { createRestHandler, pathOf } from './rest';
import { createThreeDsPages, isThreeDsPath, threeDsPathForLog } from './three-d-secure';
import { createTrpcHandler } from './trpc';

export interface HttpDeps {
  services: Services;
  logger: Logger;
  metrics: Metrics;
  publicUrl: string;
  /** The simulated acquirer's own address, behind the simulated issuer's page. */
  simulatorUrl: string;
  /** Proxies whose X-Forwarded-For is believed (GATEWAY_TRUSTED_PROXIES). */
  trustedProxies: TrustedProxies;
  /** Answers /health: whether the database responds. */
  health(): Promise<boolean>;
}

function send(res: ServerResponse, status: number, type: string, body: string) {
  res.statusCode = status;
  res.setHeader('content-type', type);
  res.end(body);
}

/** Answers every HTTP request of the gateway: operational endpoints, then the REST API. */
export function createRequestListener({
  services,
  logger,
  metrics,
  publicUrl,
  simulatorUrl,
  trustedProxies,
  health,
}: HttpDeps): RequestListener {
  const rest = createRestHandler(services, logger, trustedProxies);
  const cors = createCors();
  const trpc = createTrpcHandler(services, logger, trustedProxies);
  const notification = createNotificationHandler(services);
  const threeDsPages = createThreeDsPages(services, simulatorUrl);
  let openapi: string | undefined;

  async function route(req: IncomingMessage, res: ServerResponse, path: string) {
    if (req.method === 'GET' && path === '/health') {
      const ok = await health().catch(() => false);
      return send(res, ok ? 200 : 503, 'application/json', JSON.stringify({ status: ok ? 'ok' : 'unavailable' }));
    }
    if (req.method === 'GET' && path === '/openapi.json') {
      openapi ??= JSON.stringify(openApiDocument(publicUrl));
      return send(res, 200, 'application/json', openapi);
    }
    if (req.method === 'GET' && path === '/errorcodes') {
      return send(res, 200, 'text/html; charset=utf-8', errorCodesPage(ERRORS));
    }
    if (path.startsWith('/trpc/')) return trpc(req, res, path);
    if (isThreeDsPath(path)) return threeDsPages(req, res, path);
    const providerId = req.method === 'POST' ? notificationProviderId(path) : undefined;
    if (providerId !== undefined) return notification(req, res, path, providerId);
    if (cors(req, res, path)) return;
    return rest(req, res, path);
  }

  return (req, res) => {
    const started = process.hrtime.bigint();
    // Answers hold account data: no browser or proxy may keep one.
    res.setHeader('cache-control', 'no-store');
    const path = pathOf(req);
    const logged = threeDsPathForLog(path) ?? maskDigits(path);
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.observe(req.method ?? 'GET', path, res.statusCode, seconds);
      // The query string is never logged (a search may carry a card number), and digit runs in the
      // path that look like a card number are masked.
      logger.info({ method: req.method, path: logged, status: res.statusCode, ms: Math.round(seconds * 1000) }, 'request');
    });
    route(req, res, path).catch((error: unknown) => {
      logger.error({ err: error, path: logged }, 'unhandled error');
      if (!res.headersSent) send(res, 500, 'application/json', JSON.stringify({ message: 'Internal error', code: 1 }));
    });
  };
}

/**
 * Answers a request Node's HTTP parser refused before any handler saw it (headers over 16 KB: 431;
 * anything malformed: 400) with the API error body, not Node's bare status line.
 */
export function answerClientError(docsUrl: string) {
  return (error: Error & { code?: string }, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const http = tooLarge ? 431 : 400;
    const message = tooLarge ? 'The request line and headers are larger than 16 KB' : 'The request is not valid HTTP';
    const body = JSON.stringify(renderApiError(new ApiError('ValidationError', { http, message }), '', docsUrl));
    socket.end(
      `HTTP/1.1 ${http} ${STATUS_CODES[http]}\r\ncontent-type: application/json\r\ncache-control: no-store\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  };
}
