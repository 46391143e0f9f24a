import { NextFunction, Request, RequestHandler, Response } from 'express';
import { unauthorized } from '../../support/errors';

/**
 * Lets a request through only when its X-Api-Key header is one of `keys`, and
 * records a short, loggable form of the key as `res.locals.partner`.
 */
export function apiKey(keys: ReadonlySet<string>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const presented = req.header('x-api-key');
    if (!presented || !keys.has(presented)) {
      next(unauthorized());
      return;
    }
    res.locals.partner = `${presented.slice(0, 4)}…`;
    next();
  };
}
