import { NextFunction, Request, RequestHandler, Response } from 'express';
import { payloadTooLarge } from '../../support/errors';

/**
 * Refuses request bodies over `limitBytes`, first by Content-Length and then
 * by counting the bytes that actually arrive (chunked uploads).
 */
export function bodySize(limitBytes: number): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const declared = Number(req.header('content-length') ?? 0);
    if (declared > limitBytes) {
      next(payloadTooLarge(limitBytes));
      return;
    }
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) {
        req.off('data', onData);
        req.destroy();
        next(payloadTooLarge(limitBytes));
      }
    };
    req.on('data', onData);
    next();
  };
}
