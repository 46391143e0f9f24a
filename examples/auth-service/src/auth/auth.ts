import { NextFunction, Request, Response } from 'express';
import { toPublicUser, normalizeEmail, PublicUser, UserRole } from '../models/user';
import { userService } from '../services/user.service';
import { ForbiddenError, UnauthorizedError } from '../utils/errors';
import { logger } from '../utils/logger';
import { verifyPassword } from '../utils/password';
import { decodeJwt, JwtError, JwtExpiredError } from './jwt-utils';
import { sessionManager, SessionMeta } from './session-manager';
import { AccessTokenClaims, isExpired, TokenPair, verifyAccessToken } from './tokens';

export interface AuthContext {
  userId: string;
  sessionId: string;
  role: UserRole;
  /** Expiry of the presented access token, epoch seconds as found in the jwt. */
  tokenExp?: number;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: AuthContext;
    }
  }
}

export interface AuthResponse {
  user?: PublicUser;
  accessToken: string;
  accessTokenExpiresAt: string;
  refreshToken: string;
  refreshTokenExpiresAt: string;
}

function toAuthResponse(tokens: TokenPair, user?: PublicUser): AuthResponse {
  return {
    user,
    accessToken: tokens.accessToken.token,
    accessTokenExpiresAt: new Date(tokens.accessToken.expiresAt).toISOString(),
    refreshToken: tokens.refreshToken.token,
    refreshTokenExpiresAt: new Date(tokens.refreshToken.expiresAt).toISOString(),
  };
}

/** Verifies credentials, records the login and starts a new session. */
export async function login(email: string, password: string, meta: SessionMeta = {}): Promise<AuthResponse> {
  const user = await userService.findByEmail(normalizeEmail(email));
  // Run the hash check even for unknown emails so timing does not leak which accounts exist.
  const passwordOk = await verifyPassword(password, user?.passwordHash ?? 'scrypt$00$00');
  if (!user || !passwordOk) {
    logger.info('login failed', { email: normalizeEmail(email), ip: meta.ip });
    throw new UnauthorizedError('invalid email or password', 'INVALID_CREDENTIALS');
  }
  const { tokens } = await sessionManager.start(user.id, user.role, meta);
  await userService.recordLogin(user.id);
  return toAuthResponse(tokens, toPublicUser(user));
}

/** Validates an access token and the session behind it. */
export async function authenticate(accessToken: string): Promise<AuthContext> {
  let claims: AccessTokenClaims;
  try {
    claims = verifyAccessToken(accessToken);
  } catch (err) {
    if (err instanceof JwtExpiredError) {
      throw new UnauthorizedError('access token expired', 'TOKEN_EXPIRED');
    }
    if (err instanceof JwtError) {
      throw new UnauthorizedError('invalid access token', err.code);
    }
    throw err;
  }
  const session = await sessionManager.touch(claims.sid);
  if (session.userId !== claims.sub) {
    throw new UnauthorizedError('token does not match session', 'SESSION_MISMATCH');
  }
  return {
    userId: claims.sub,
    sessionId: claims.sid,
    role: claims.role as UserRole,
    tokenExp: claims.exp,
  };
}

export async function refresh(refreshToken: string): Promise<AuthResponse> {
  const { tokens } = await sessionManager.refresh(refreshToken);
  return toAuthResponse(tokens);
}

export async function logout(accessToken: string): Promise<void> {
  // Logging out with an expired access token should still end the session.
  const { claims } = decodeJwt<AccessTokenClaims>(accessToken);
  if (typeof claims.sid === 'string') {
    await sessionManager.end(claims.sid);
  }
}

export function extractBearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !value) return undefined;
  return value.trim();
}

/** Express middleware: rejects the request unless it carries a valid access token. */
export function requireAuth(req: Request, res: Response, next: NextFunction): void {
  const token = extractBearerToken(req);
  if (!token) {
    next(new UnauthorizedError('missing bearer token', 'TOKEN_MISSING'));
    return;
  }
  let expired: boolean;
  try {
    expired = isExpired(token);
  } catch {
    next(new UnauthorizedError('malformed bearer token', 'TOKEN_MALFORMED'));
    return;
  }
  if (expired) {
    res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token", error_description="token expired"');
    next(new UnauthorizedError('access token expired', 'TOKEN_EXPIRED'));
    return;
  }
  authenticate(token)
    .then((auth) => {
      req.auth = auth;
      next();
    })
    .catch(next);
}

export function requireRole(...roles: UserRole[]) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!req.auth) {
      next(new UnauthorizedError());
      return;
    }
    if (!roles.includes(req.auth.role)) {
      next(new ForbiddenError(`requires one of: ${roles.join(', ')}`));
      return;
    }
    next();
  };
}
