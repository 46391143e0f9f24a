import { randomUUID } from 'crypto';
import { NextFunction, Request, Response } from 'express';
import { logger } from '../utils/logger';

const REQUEST_ID_HEADER = 'x-request-id';
const QUIET_PATHS = new Set(['/health/live', '/health/ready']);

/**
 * Assigns every request an id (reusing the one set by the load balancer if
 * present) and logs one line per completed request with its duration.
 */
export function requestLogger(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  const incoming = req.header(REQUEST_ID_HEADER);
  const requestId = incoming && incoming.length <= 128 ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, requestId);
  res.locals.requestId = requestId;

  res.on('finish', () => {
    if (QUIET_PATHS.has(req.path) && res.statusCode < 400) return;
    const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
    const fields = {
      requestId,
      method: req.method,
      path: req.originalUrl,
      status: res.statusCode,
      durationMs: Math.round(durationMs * 10) / 10,
      userId: req.auth?.userId,
    };
    if (res.statusCode >= 500) logger.error('request completed', fields);
    else if (res.statusCode >= 400) logger.warn('request completed', fields);
    else logger.info('request completed', fields);
  });

  next();
}
