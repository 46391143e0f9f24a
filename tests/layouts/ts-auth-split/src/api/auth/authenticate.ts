import { NextFunction, Request, Response } from 'express';
import { AppConfig } from '../../config';
import { SessionManager } from '../../session/manager';
import { AccessClaims, TokenExpiredError, TokenInvalidError } from '../../token/types';
import { isExpired, verifyAccessToken } from '../../token/verify';
import { UnauthorizedError } from '../../utils/errors';
import { log } from '../../utils/logger';

export interface Principal {
  userId: string;
  sessionId: string;
  scopes: string[];
}

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}

function bearer(req: Request): string | undefined {
  const header = req.header('authorization');
  if (!header) return undefined;
  const [scheme, value] = header.split(' ', 2);
  return scheme.toLowerCase() === 'bearer' && value ? value.trim() : undefined;
}

/**
 * Resolves the caller behind an access token. A token that expired while a
 * request was being retried is still honoured if its session was open when the
 * token ran out; anything else past `exp` is rejected.
 */
export async function authenticate(
  raw: string,
  config: AppConfig,
  sessions: SessionManager,
): Promise<Principal> {
  let claims: AccessClaims;
  try {
    claims = verifyAccessToken(raw, config, { allowExpired: true });
  } catch (err) {
    if (err instanceof TokenInvalidError) {
      throw new UnauthorizedError('invalid access token', 'TOKEN_INVALID');
    }
    throw err;
  }
  await sessions.load(claims.sid);
  if (isExpired(claims) && !sessions.isOpen(claims.sid, claims.exp)) {
    throw new UnauthorizedError('access token expired', 'TOKEN_EXPIRED');
  }
  if (!sessions.isOpen(claims.sid)) {
    throw new UnauthorizedError('session closed', 'SESSION_CLOSED');
  }
  await sessions.touch(claims.sid);
  return { userId: claims.sub, sessionId: claims.sid, scopes: claims.scopes };
}

/** Express middleware: sets req.principal or fails with 401. */
export function requireAuth(config: AppConfig, sessions: SessionManager) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const raw = bearer(req);
    if (!raw) {
      next(new UnauthorizedError('missing bearer token', 'TOKEN_MISSING'));
      return;
    }
    authenticate(raw, config, sessions)
      .then((principal) => {
        req.principal = principal;
        next();
      })
      .catch((err) => {
        if (err instanceof TokenExpiredError) {
          log.debug('expired token presented', { expiredAt: err.expiredAt });
        }
        next(err);
      });
  };
}

export function requireScope(scope: string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!req.principal?.scopes.includes(scope)) {
      next(new UnauthorizedError(`missing scope ${scope}`, 'SCOPE_MISSING'));
      return;
    }
    next();
  };
}
