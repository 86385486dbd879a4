import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderApiError, toApiError, type Services } from '@gateway/api';
import { maskDigits } from '../logger';
import { readRawBody } from './body';

const ROUTE = /^\/provider\/([^/]+)\/notification\/?$/i;

/** The provider id of `POST /provider/{providerId}/notification`, or undefined for any other path. */
export function notificationProviderId(path: string): string | undefined {
  const id = ROUTE.exec(path)?.[1];
  try {
    return id === undefined ? undefined : decodeURIComponent(id);
  } catch {
    // Malformed escapes: no provider has such an id.
    return id;
  }
}

/**
 * A provider's notifications, beside the REST API: no API key (the provider signs them), and the
 * raw bytes go to the provider's own verification (a parsed and re-serialised body would not match
 * its signature). Answers what the provider expects (Adyen `[accepted]`), or the API error body.
 */
export function createNotificationHandler(services: Services) {
  const docsUrl = services.config.errorDocsUrl;
  return async (req: IncomingMessage, res: ServerResponse, path: string, providerId: string): Promise<void> => {
    let answer: { status: number; contentType: string; body: string };
    try {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value]),
      );
      answer = await services.notifications.receive(providerId, await readRawBody(req, path), headers);
    } catch (cause) {
      const error = toApiError(cause);
      if (error.http >= 500) throw cause;
      answer = {
        status: error.http,
        contentType: 'application/json',
        body: JSON.stringify(renderApiError(error, maskDigits(path), docsUrl)),
      };
    }
    res.statusCode = answer.status;
    res.setHeader('content-type', answer.contentType);
    res.end(answer.body);
  };
}
