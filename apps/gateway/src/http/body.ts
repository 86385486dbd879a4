import type { IncomingMessage } from 'node:http';
import { ApiError } from '@gateway/core';
import { scanJson } from './json-scan';

const MB = 1024 * 1024;
/** Deepest nesting of arrays and objects a body may have: every operation's input needs fewer than 8. */
export const MAX_JSON_DEPTH = 32;

const isBatch = (path: string) => path.toLowerCase().startsWith('/batch');

/** Batches may carry up to 10 MB of CSV; every other request is small. */
export function bodyLimit(path: string): number {
  return isBatch(path) ? 10 * MB : 1 * MB;
}

/** The request body's bytes as sent, size-limited (413): for a route that must read them raw (a signed notification). */
export async function readRawBody(req: IncomingMessage, path: string): Promise<Buffer> {
  const limit = bodyLimit(path);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(path);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(path);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads and parses a JSON request body. Any content type is read as JSON (some clients omit it
 * or add a charset); an empty body, `{}` and `[]` all mean "no fields".
 */
export async function readJsonBody(req: IncomingMessage, path: string): Promise<Record<string, unknown>> {
  const text = (await readRawBody(req, path)).toString('utf8').trim();
  if (text === '') return {};
  const scan = scanJson(text, MAX_JSON_DEPTH);
  if (scan.tooDeep) {
    throw new ApiError('ValidationError', { message: `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep` });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError('ValidationError', { message: 'The request body is not valid JSON' });
  }
  // The literal is not echoed: it may be a card number sent as a JSON number.
  if (scan.impreciseNumber !== undefined) {
    throw new ApiError('ValidationError', {
      message: 'A number has more than 15 significant digits and cannot be kept exactly; send it as a string',
    });
  }
  if (Array.isArray(parsed) && parsed.length === 0) return {};
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError('ValidationError', { message: 'The request body must be a JSON object' });
  }
  return parsed as Record<string, unknown>;
}

/** 413 with the error body; a batch too large is an invalid batch (101), as any other refused batch file. */
function tooLarge(path: string): ApiError {
  const message = `The request body is larger than ${bodyLimit(path) / MB} MB`;
  if (!isBatch(path)) return new ApiError('ValidationError', { http: 413, message });
  return new ApiError('InvalidBatch', { http: 413, message, details: { field: 'batch', reason: message } });
}
