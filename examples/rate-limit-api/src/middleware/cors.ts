import { NextFunction, Request, RequestHandler, Response } from 'express';

export interface CorsOptions {
  origins: string[];
  maxAgeSeconds: number;
  allowHeaders?: string[];
  exposeHeaders?: string[];
}

const DEFAULT_ALLOW_HEADERS = ['Content-Type', 'X-Api-Key', 'X-User-Id', 'X-Request-Id'];
const DEFAULT_EXPOSE_HEADERS = ['Link', 'Location', 'Retry-After', 'X-Request-Id'];
const METHODS = 'GET,POST,PATCH,DELETE,OPTIONS';

function originAllowed(origin: string, allowed: string[]): boolean {
  return allowed.includes('*') || allowed.includes(origin);
}

/**
 * Minimal CORS support for the browser front end. Requests without an Origin
 * header (server to server, curl) pass straight through.
 */
export function cors(options: CorsOptions): RequestHandler {
  const allowHeaders = (options.allowHeaders ?? DEFAULT_ALLOW_HEADERS).join(', ');
  const exposeHeaders = (options.exposeHeaders ?? DEFAULT_EXPOSE_HEADERS).join(', ');

  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.header('origin');
    if (!origin) {
      next();
      return;
    }
    res.vary('Origin');
    if (!originAllowed(origin, options.origins)) {
      if (req.method === 'OPTIONS') {
        res.status(403).end();
        return;
      }
      next();
      return;
    }

    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', exposeHeaders);

    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', METHODS);
      res.setHeader('Access-Control-Allow-Headers', allowHeaders);
      res.setHeader('Access-Control-Max-Age', String(options.maxAgeSeconds));
      res.status(204).end();
      return;
    }
    next();
  };
}
