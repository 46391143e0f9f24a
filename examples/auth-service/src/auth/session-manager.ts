import { randomUUID } from 'crypto';
import { config } from '../config';
import { UnauthorizedError } from '../utils/errors';
import { logger } from '../utils/logger';
import { JwtExpiredError } from './jwt-utils';
import {
  hashToken,
  IssuedToken,
  issueTokenPair,
  refreshAccessToken,
  RefreshTokenClaims,
  TokenPair,
  verifyRefreshToken,
} from './tokens';

/**
 * Server-side record of a login. The refresh jwt handed to the client only
 * proves which session it belongs to (`sid` claim); signature and `exp` are
 * checked by tokens.ts / jwt-utils.ts, while revocation, rotation and the idle
 * TTL are enforced here against the stored session.
 */
export interface Session {
  id: string;
  userId: string;
  role: string;
  /** sha256 of the refresh token that is currently valid for this session. */
  refreshTokenHash: string;
  createdAt: number;
  lastSeenAt: number;
  /** When the refresh token (and therefore the session) runs out, epoch ms. */
  expiresAt: number;
  revokedAt: number | null;
  userAgent?: string;
  ip?: string;
}

export interface SessionMeta {
  userAgent?: string;
  ip?: string;
}

export interface SessionStore {
  get(id: string): Promise<Session | undefined>;
  save(session: Session): Promise<void>;
  delete(id: string): Promise<void>;
  listByUser(userId: string): Promise<Session[]>;
  all(): Promise<Session[]>;
}

export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, Session>();

  async get(id: string): Promise<Session | undefined> {
    const session = this.sessions.get(id);
    return session ? { ...session } : undefined;
  }

  async save(session: Session): Promise<void> {
    this.sessions.set(session.id, { ...session });
  }

  async delete(id: string): Promise<void> {
    this.sessions.delete(id);
  }

  async listByUser(userId: string): Promise<Session[]> {
    return [...this.sessions.values()].filter((s) => s.userId === userId).map((s) => ({ ...s }));
  }

  async all(): Promise<Session[]> {
    return [...this.sessions.values()].map((s) => ({ ...s }));
  }
}

export interface SessionResult {
  session: Session;
  tokens: TokenPair;
}

export class SessionManager {
  constructor(
    private readonly store: SessionStore = new InMemorySessionStore(),
    private readonly idleTtlSeconds: number = config.auth.sessionIdleTtlSeconds,
  ) {}

  async start(userId: string, role: string, meta: SessionMeta = {}): Promise<SessionResult> {
    await this.evictOverflow(userId);
    const id = randomUUID();
    const tokens = issueTokenPair({ userId, sessionId: id, role });
    const now = Date.now();
    const session: Session = {
      id,
      userId,
      role,
      refreshTokenHash: hashToken(tokens.refreshToken.token),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: tokens.refreshToken.expiresAt,
      revokedAt: null,
      userAgent: meta.userAgent,
      ip: meta.ip,
    };
    await this.store.save(session);
    logger.info('session started', { sessionId: id, userId });
    return { session, tokens };
  }

  /**
   * Exchanges a refresh token for new tokens. With rotation enabled the old
   * refresh token is invalidated; presenting it again is treated as theft and
   * revokes every session of the user.
   */
  async refresh(refreshToken: string): Promise<SessionResult> {
    let claims: RefreshTokenClaims;
    try {
      claims = verifyRefreshToken(refreshToken);
    } catch (err) {
      if (err instanceof JwtExpiredError) {
        throw new UnauthorizedError('refresh token expired', 'REFRESH_EXPIRED');
      }
      throw new UnauthorizedError('invalid refresh token', 'REFRESH_INVALID');
    }

    const session = await this.requireActive(claims.sid);
    if (session.refreshTokenHash !== hashToken(refreshToken)) {
      logger.warn('refresh token reuse detected', { sessionId: session.id, userId: session.userId });
      await this.revokeAllForUser(session.userId);
      throw new UnauthorizedError('refresh token already used', 'REFRESH_REUSED');
    }

    session.lastSeenAt = Date.now();

    if (!config.auth.rotateRefreshTokens) {
      const accessToken = refreshAccessToken(refreshToken, session.role);
      const existing: IssuedToken = { token: refreshToken, type: 'refresh', expiresAt: session.expiresAt };
      await this.store.save(session);
      return { session, tokens: { accessToken, refreshToken: existing } };
    }

    const tokens = issueTokenPair({ userId: session.userId, sessionId: session.id, role: session.role });
    session.refreshTokenHash = hashToken(tokens.refreshToken.token);
    session.expiresAt = tokens.refreshToken.expiresAt;
    await this.store.save(session);
    logger.debug('session refreshed', { sessionId: session.id });
    return { session, tokens };
  }

  /** Marks the session as used by an authenticated request and returns it. */
  async touch(sessionId: string): Promise<Session> {
    const session = await this.requireActive(sessionId);
    session.lastSeenAt = Date.now();
    await this.store.save(session);
    return session;
  }

  isSessionExpired(session: Session, now: number = Date.now()): boolean {
    if (session.revokedAt !== null) return true;
    if (now >= session.expiresAt) return true;
    return now - session.lastSeenAt > this.idleTtlSeconds * 1000;
  }

  async end(sessionId: string): Promise<void> {
    const session = await this.store.get(sessionId);
    if (!session || session.revokedAt !== null) return;
    session.revokedAt = Date.now();
    await this.store.save(session);
    logger.info('session ended', { sessionId, userId: session.userId });
  }

  async revokeAllForUser(userId: string): Promise<number> {
    const sessions = await this.store.listByUser(userId);
    const now = Date.now();
    let revoked = 0;
    for (const session of sessions) {
      if (session.revokedAt !== null) continue;
      session.revokedAt = now;
      await this.store.save(session);
      revoked++;
    }
    return revoked;
  }

  async listActive(userId: string): Promise<Session[]> {
    const sessions = await this.store.listByUser(userId);
    return sessions.filter((session) => !this.isSessionExpired(session));
  }

  /** Deletes sessions whose refresh token or idle TTL ran out. Run periodically. */
  async pruneExpired(now: number = Date.now()): Promise<number> {
    let removed = 0;
    for (const session of await this.store.all()) {
      if (this.isSessionExpired(session, now)) {
        await this.store.delete(session.id);
        removed++;
      }
    }
    return removed;
  }

  private async requireActive(sessionId: string): Promise<Session> {
    const session = await this.store.get(sessionId);
    if (!session) {
      throw new UnauthorizedError('session not found', 'SESSION_NOT_FOUND');
    }
    if (this.isSessionExpired(session)) {
      throw new UnauthorizedError('session expired', 'SESSION_EXPIRED');
    }
    return session;
  }

  private async evictOverflow(userId: string): Promise<void> {
    const active = (await this.listActive(userId)).sort((a, b) => a.lastSeenAt - b.lastSeenAt);
    const overflow = active.length - (config.auth.maxSessionsPerUser - 1);
    for (let i = 0; i < overflow; i++) {
      await this.end(active[i].id);
    }
  }
}

export const sessionManager = new SessionManager();
