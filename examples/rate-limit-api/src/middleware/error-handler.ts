import { NextFunction, Request, Response } from 'express';
import { config } from '../config';
import { HttpError, isHttpError, NotFoundError, TooManyRequestsError } from '../utils/errors';
import { logger } from '../utils/logger';

export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(new NotFoundError('Route', `${req.method} ${req.originalUrl}`));
}

// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) {
    logger.error('error after response started', { err, url: req.originalUrl });
    res.end();
    return;
  }

  if (isHttpError(err)) {
    if (err instanceof TooManyRequestsError) {
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
    }
    res.status(err.status).json(err.toBody());
    return;
  }

  const parseFailure = err as { type?: string; status?: number };
  if (parseFailure?.type === 'entity.parse.failed') {
    res.status(400).json(new HttpError(400, 'invalid_json', 'Request body is not valid JSON').toBody());
    return;
  }
  if (parseFailure?.type === 'entity.too.large') {
    res.status(413).json(new HttpError(413, 'payload_too_large', 'Request body is too large').toBody());
    return;
  }

  logger.error('unhandled error', { err, url: req.originalUrl, requestId: res.locals.requestId });
  const message = config.env === 'production' ? 'Internal server error' : String((err as Error)?.stack ?? err);
  res.status(500).json(new HttpError(500, 'internal', message).toBody());
}
