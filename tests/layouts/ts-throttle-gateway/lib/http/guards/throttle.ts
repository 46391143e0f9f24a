import { NextFunction, Request, RequestHandler, Response } from 'express';
import { tooManyRequests } from '../../support/errors';

/**
 * Sliding-window throttle: at most `maxHits` requests per client within any
 * `windowMs`. Hits are kept as timestamps per client key, trimmed on each
 * request, so memory is bounded by maxHits per active client.
 */
export interface ThrottleOptions {
  windowMs: number;
  maxHits: number;
  /** Who is counted; defaults to the API key, then the remote address. */
  keyOf?: (req: Request) => string;
  now?: () => number;
}

export interface ThrottleDecision {
  allowed: boolean;
  remaining: number;
  /** Milliseconds until the oldest hit leaves the window. */
  resetInMs: number;
}

export class Throttler {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly options: Required<Pick<ThrottleOptions, 'windowMs' | 'maxHits' | 'now'>>) {}

  hit(key: string): ThrottleDecision {
    const now = this.options.now();
    const since = now - this.options.windowMs;
    const recent = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (recent.length >= this.options.maxHits) {
      this.hits.set(key, recent);
      return { allowed: false, remaining: 0, resetInMs: recent[0] + this.options.windowMs - now };
    }
    recent.push(now);
    this.hits.set(key, recent);
    return {
      allowed: true,
      remaining: this.options.maxHits - recent.length,
      resetInMs: recent[0] + this.options.windowMs - now,
    };
  }

  /** Forgets clients that have been quiet for a whole window. */
  sweep(): number {
    const since = this.options.now() - this.options.windowMs;
    let dropped = 0;
    for (const [key, times] of this.hits) {
      if (times.length === 0 || times[times.length - 1] <= since) {
        this.hits.delete(key);
        dropped++;
      }
    }
    return dropped;
  }

  get trackedClients(): number {
    return this.hits.size;
  }
}

export function defaultKeyOf(req: Request): string {
  const apiKey = req.header('x-api-key');
  return apiKey ? `key:${apiKey}` : `ip:${req.ip}`;
}

/** Express middleware that answers 429 once a client exceeds its window. */
export function throttle(options: ThrottleOptions): RequestHandler {
  const throttler = new Throttler({
    windowMs: options.windowMs,
    maxHits: options.maxHits,
    now: options.now ?? Date.now,
  });
  const keyOf = options.keyOf ?? defaultKeyOf;
  const sweeper = setInterval(() => throttler.sweep(), options.windowMs);
  sweeper.unref?.();

  return (req: Request, res: Response, next: NextFunction) => {
    const decision = throttler.hit(keyOf(req));
    res.setHeader('X-Throttle-Remaining', String(decision.remaining));
    if (!decision.allowed) {
      next(tooManyRequests(Math.ceil(decision.resetInMs / 1000)));
      return;
    }
    next();
  };
}
