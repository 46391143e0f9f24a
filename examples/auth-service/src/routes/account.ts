import { Router } from 'express';
import { extractBearerToken, login, logout, refresh, requireAuth } from '../auth/auth';
import { sessionManager } from '../auth/session-manager';
import { toPublicUser } from '../models/user';
import { userService } from '../services/user.service';
import { notificationService } from '../services/notification.service';
import { asyncHandler } from '../utils/async-handler';
import { UnauthorizedError } from '../utils/errors';
import { validateBody } from '../middleware/validate';

export const accountRouter = Router();

accountRouter.post(
  '/register',
  validateBody({
    email: { type: 'email', required: true },
    displayName: { type: 'string', required: true, minLength: 1, maxLength: 80 },
    password: { type: 'string', required: true, maxLength: 200 },
  }),
  asyncHandler(async (req, res) => {
    const user = await userService.create(req.body);
    await notificationService.sendWelcome(user.email, user.displayName);
    res.status(201).json(toPublicUser(user));
  }),
);

accountRouter.post(
  '/login',
  validateBody({
    email: { type: 'email', required: true },
    password: { type: 'string', required: true },
  }),
  asyncHandler(async (req, res) => {
    const result = await login(req.body.email, req.body.password, {
      ip: req.ip,
      userAgent: req.header('user-agent'),
    });
    res.json(result);
  }),
);

accountRouter.post(
  '/refresh',
  validateBody({ refreshToken: { type: 'string', required: true } }),
  asyncHandler(async (req, res) => {
    res.json(await refresh(req.body.refreshToken));
  }),
);

accountRouter.post(
  '/logout',
  asyncHandler(async (req, res) => {
    const token = extractBearerToken(req);
    if (!token) throw new UnauthorizedError('missing bearer token');
    await logout(token);
    res.status(204).end();
  }),
);

accountRouter.get(
  '/me',
  requireAuth,
  asyncHandler(async (req, res) => {
    const user = await userService.getById(req.auth!.userId);
    res.json(toPublicUser(user));
  }),
);

accountRouter.get(
  '/sessions',
  requireAuth,
  asyncHandler(async (req, res) => {
    const sessions = await sessionManager.listActive(req.auth!.userId);
    res.json(
      sessions.map((s) => ({
        id: s.id,
        current: s.id === req.auth!.sessionId,
        createdAt: new Date(s.createdAt).toISOString(),
        lastSeenAt: new Date(s.lastSeenAt).toISOString(),
        userAgent: s.userAgent,
      })),
    );
  }),
);
