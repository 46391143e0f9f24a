import express, { RequestHandler } from 'express';
import { config } from '../config';
import { requireApiKey } from './auth';
import { cors } from './cors';
import { requestLogger } from './request-logger';
import { createThrottle, ThrottleOptions } from './throttle';

export { requireApiKey, clientIdForKey } from './auth';
export { cors } from './cors';
export { errorHandler, notFound } from './error-handler';
export { requestLogger } from './request-logger';
export { allowValues, requireJsonBody, validateId } from './validate';
export { createThrottle, throttle, MemoryBucketStore } from './throttle';
export type { ThrottleOptions, ThrottleMiddleware, BucketStore } from './throttle';

/**
 * Middleware that runs for every request, before routing: request ids and
 * logging, CORS and JSON body parsing.
 */
export function commonMiddleware(): RequestHandler[] {
  return [
    requestLogger,
    cors(config.cors),
    express.json({ limit: config.bodyLimit }),
  ];
}

export interface ChainOptions {
  /** Require a valid X-Api-Key header. Defaults to true. */
  auth?: boolean;
  /**
   * Throttle settings merged over `config.throttle`, or `false` to disable
   * throttling for the mounted router.
   */
  throttle?: Partial<ThrottleOptions> | false;
}

/**
 * Builds the per-router chain. Authentication runs first so the throttle can
 * count requests per API client rather than per IP address.
 */
export function buildChain(options: ChainOptions = {}): RequestHandler[] {
  const chain: RequestHandler[] = [];
  if (options.auth ?? true) {
    chain.push(requireApiKey({ keys: config.auth.apiKeys, headerName: config.auth.headerName }));
  }
  if (options.throttle !== false) {
    chain.push(createThrottle({ ...config.throttle, ...options.throttle }));
  }
  return chain;
}
