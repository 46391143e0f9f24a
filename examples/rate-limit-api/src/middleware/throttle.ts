import { NextFunction, Request, RequestHandler, Response } from 'express';
import { TooManyRequestsError } from '../utils/errors';
import { logger } from '../utils/logger';

/**
 * Request throttling based on a token bucket per client.
 *
 * Every client starts with `maxRequests` tokens. Each request spends one token
 * and tokens trickle back at `maxRequests / windowMs` per millisecond, so a
 * client can burst up to `maxRequests` and then sustain `maxRequests` per
 * window. When the bucket is empty the request is rejected with 429 and a
 * Retry-After header.
 */
export interface ThrottleOptions {
  /** Length of the window in which `maxRequests` may be spent. */
  windowMs: number;
  /** Bucket capacity, i.e. requests allowed per window. */
  maxRequests: number;
  /** Identify clients by X-Forwarded-For instead of the socket address. */
  trustProxy?: boolean;
  /** Custom key; defaults to the API client id, then the client IP. */
  keyGenerator?: (req: Request, res: Response) => string;
  /** Requests for which this returns true are never throttled. */
  skip?: (req: Request) => boolean;
  /** Add X-Throttle-* headers to every response. Defaults to true. */
  sendHeaders?: boolean;
  store?: BucketStore;
  now?: () => number;
}

export interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface BucketStore {
  get(key: string): Bucket | undefined;
  set(key: string, bucket: Bucket): void;
  delete(key: string): void;
  /** Drops buckets untouched since `before`; returns how many were removed. */
  sweep(before: number): number;
}

export class MemoryBucketStore implements BucketStore {
  private readonly buckets = new Map<string, Bucket>();

  get(key: string): Bucket | undefined {
    return this.buckets.get(key);
  }

  set(key: string, bucket: Bucket): void {
    this.buckets.set(key, bucket);
  }

  delete(key: string): void {
    this.buckets.delete(key);
  }

  sweep(before: number): number {
    let removed = 0;
    for (const [key, bucket] of this.buckets) {
      if (bucket.updatedAt < before) {
        this.buckets.delete(key);
        removed++;
      }
    }
    return removed;
  }

  get size(): number {
    return this.buckets.size;
  }
}

export interface ThrottleDecision {
  allowed: boolean;
  remaining: number;
  retryAfterMs: number;
  bucket: Bucket;
}

/** Pure token bucket step: refills the bucket for the elapsed time and tries to spend one token. */
export function consumeToken(
  previous: Bucket | undefined,
  options: Pick<ThrottleOptions, 'windowMs' | 'maxRequests'>,
  now: number,
): ThrottleDecision {
  const refillPerMs = options.maxRequests / options.windowMs;
  const start = previous ?? { tokens: options.maxRequests, updatedAt: now };
  const elapsed = Math.max(0, now - start.updatedAt);
  const tokens = Math.min(options.maxRequests, start.tokens + elapsed * refillPerMs);

  if (tokens >= 1) {
    const bucket = { tokens: tokens - 1, updatedAt: now };
    return { allowed: true, remaining: Math.floor(bucket.tokens), retryAfterMs: 0, bucket };
  }
  const retryAfterMs = Math.ceil((1 - tokens) / refillPerMs);
  return { allowed: false, remaining: 0, retryAfterMs, bucket: { tokens, updatedAt: now } };
}

export function clientKey(req: Request, res: Response, trustProxy = false): string {
  const clientId = res.locals.clientId as string | undefined;
  if (clientId) return clientId;
  if (trustProxy) {
    const forwarded = req.header('x-forwarded-for');
    if (forwarded) return forwarded.split(',')[0].trim();
  }
  return req.socket.remoteAddress ?? 'unknown';
}

export type ThrottleMiddleware = RequestHandler & {
  /** Forget the bucket of one client, or of all clients. */
  reset(key?: string): void;
};

export function createThrottle(options: ThrottleOptions): ThrottleMiddleware {
  if (options.windowMs <= 0 || options.maxRequests <= 0) {
    throw new Error('throttle windowMs and maxRequests must be positive');
  }
  const store = options.store ?? new MemoryBucketStore();
  const now = options.now ?? Date.now;
  const sendHeaders = options.sendHeaders ?? true;
  const keyOf = options.keyGenerator ?? ((req: Request, res: Response) => clientKey(req, res, options.trustProxy));
  let lastSweep = now();

  const middleware = (req: Request, res: Response, next: NextFunction): void => {
    if (options.skip?.(req)) {
      next();
      return;
    }
    const current = now();
    if (current - lastSweep > options.windowMs) {
      // A bucket idle for a full window is back to capacity, so it can be dropped.
      store.sweep(current - options.windowMs);
      lastSweep = current;
    }

    const key = keyOf(req, res);
    const decision = consumeToken(store.get(key), options, current);
    store.set(key, decision.bucket);

    if (sendHeaders) {
      res.setHeader('X-Throttle-Limit', String(options.maxRequests));
      res.setHeader('X-Throttle-Remaining', String(decision.remaining));
    }
    if (!decision.allowed) {
      const retryAfterSeconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      logger.warn('request throttled', { key, path: req.originalUrl, retryAfterSeconds });
      next(new TooManyRequestsError(retryAfterSeconds));
      return;
    }
    next();
  };

  return Object.assign(middleware, {
    reset(key?: string): void {
      if (key === undefined) store.sweep(Number.POSITIVE_INFINITY);
      else store.delete(key);
    },
  });
}

/** Convenience wrapper used when a single route needs its own, stricter throttle. */
export function throttle(maxRequests: number, windowMs = 60_000): ThrottleMiddleware {
  return createThrottle({ maxRequests, windowMs });
}
