import { createHash, timingSafeEqual } from 'crypto';
import { NextFunction, Request, RequestHandler, Response } from 'express';
import { UnauthorizedError } from '../utils/errors';

export interface ApiKeyOptions {
  keys: string[];
  headerName: string;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * Derives a stable, non-secret identifier for a key so it can appear in logs
 * and be used to group requests per client.
 */
export function clientIdForKey(key: string): string {
  return 'key_' + digest(key).toString('hex').slice(0, 12);
}

export function requireApiKey(options: ApiKeyOptions): RequestHandler {
  const known = options.keys.map((key) => digest(key));

  return (req: Request, res: Response, next: NextFunction): void => {
    const presented = req.header(options.headerName);
    if (!presented) {
      next(new UnauthorizedError(`Missing ${options.headerName} header`));
      return;
    }
    const candidate = digest(presented);
    const match = known.some((key) => timingSafeEqual(key, candidate));
    if (!match) {
      next(new UnauthorizedError('Unknown API key'));
      return;
    }
    res.locals.clientId = clientIdForKey(presented);
    next();
  };
}
