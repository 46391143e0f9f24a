import { NextFunction, Request, Response } from 'express';
import { generateId, ID_PREFIX } from '../utils/ids';
import { logger } from '../utils/logger';

export function requestLogger(req: Request, res: Response, next: NextFunction): void {
  const startedAt = performance.now();
  const requestId = req.header('x-request-id') ?? generateId(ID_PREFIX.request, 12);
  res.locals.requestId = requestId;
  res.setHeader('X-Request-Id', requestId);

  res.on('finish', () => {
    const durationMs = Math.round((performance.now() - startedAt) * 10) / 10;
    const meta = {
      requestId,
      method: req.method,
      url: req.originalUrl,
      status: res.statusCode,
      durationMs,
      clientId: res.locals.clientId as string | undefined,
    };
    if (res.statusCode >= 500) {
      logger.error('request failed', meta);
    } else if (res.statusCode >= 400) {
      logger.warn('request rejected', meta);
    } else {
      logger.info('request handled', meta);
    }
  });

  next();
}
