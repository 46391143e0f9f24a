import { NextFunction, Request, Response } from 'express';
import { isProduction } from '../config';
import { AppError, isAppError } from '../utils/errors';
import { logger } from '../utils/logger';

export function notFoundHandler(req: Request, res: Response): void {
  res.status(404).json({ error: 'NOT_FOUND', message: `No route for ${req.method} ${req.path}` });
}

// Express recognises error handlers by their four-argument signature.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  if (isAppError(err)) {
    if (err.status >= 500) {
      logger.error('request failed', { err, method: req.method, path: req.path });
    }
    res.status(err.status).json(err.toJSON());
    return;
  }

  if (err instanceof SyntaxError && 'body' in err) {
    res.status(400).json({ error: 'BAD_JSON', message: 'request body is not valid JSON' });
    return;
  }

  logger.error('unhandled error', { err, method: req.method, path: req.path });
  const fallback = new AppError(isProduction ? 'internal server error' : String((err as Error)?.message ?? err));
  res.status(500).json(fallback.toJSON());
}
