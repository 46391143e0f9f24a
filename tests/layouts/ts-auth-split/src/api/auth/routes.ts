import { Router } from 'express';
import { AppConfig } from '../../config';
import { SessionManager } from '../../session/manager';
import { issueAccessToken, reissueAccessToken } from '../../token/issue';
import { verifyAccessToken } from '../../token/verify';
import { BadRequestError, UnauthorizedError } from '../../utils/errors';
import { checkPassword, findUserByEmail } from '../../models/user';
import { requireAuth } from './authenticate';

export function authRoutes(config: AppConfig, sessions: SessionManager): Router {
  const router = Router();

  router.post('/login', async (req, res, next) => {
    try {
      const { email, password } = req.body ?? {};
      if (typeof email !== 'string' || typeof password !== 'string') {
        throw new BadRequestError('email and password are required');
      }
      const user = await findUserByEmail(email);
      if (!user || !(await checkPassword(user, password))) {
        throw new UnauthorizedError('wrong email or password', 'BAD_CREDENTIALS');
      }
      const session = await sessions.open(user.id, user.scopes);
      const access = issueAccessToken(
        { userId: user.id, sessionId: session.id, scopes: user.scopes },
        config,
      );
      res.status(201).json({ accessToken: access.value, expiresAt: access.exp });
    } catch (err) {
      next(err);
    }
  });

  router.post('/refresh', async (req, res, next) => {
    try {
      const raw = String(req.body?.accessToken ?? '');
      const previous = verifyAccessToken(raw, config, { allowExpired: true });
      await sessions.load(previous.sid);
      if (!sessions.isOpen(previous.sid)) {
        throw new UnauthorizedError('session closed', 'SESSION_CLOSED');
      }
      const access = reissueAccessToken(previous, config);
      res.json({ accessToken: access.value, expiresAt: access.exp });
    } catch (err) {
      next(err);
    }
  });

  router.post('/logout', requireAuth(config, sessions), async (req, res, next) => {
    try {
      await sessions.close(req.principal!.sessionId);
      res.status(204).end();
    } catch (err) {
      next(err);
    }
  });

  return router;
}
