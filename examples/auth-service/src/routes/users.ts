import { Router } from 'express';
import { requireAuth, requireRole } from '../auth/auth';
import { validateBody, validateParamUuid } from '../middleware/validate';
import { isUserRole, toPublicUser } from '../models/user';
import { userService } from '../services/user.service';
import { asyncHandler } from '../utils/async-handler';
import { ValidationError } from '../utils/errors';

export const usersRouter = Router();

usersRouter.use(requireAuth, requireRole('admin', 'support'));

usersRouter.get(
  '/',
  asyncHandler(async (req, res) => {
    const offset = Math.max(0, Number(req.query.offset ?? 0) || 0);
    const count = Math.min(200, Math.max(1, Number(req.query.count ?? 50) || 50));
    const users = await userService.list(offset, count);
    res.json({ offset, count: users.length, items: users.map(toPublicUser) });
  }),
);

usersRouter.get(
  '/:id',
  validateParamUuid('id'),
  asyncHandler(async (req, res) => {
    res.json(toPublicUser(await userService.getById(req.params.id)));
  }),
);

usersRouter.patch(
  '/:id',
  validateParamUuid('id'),
  requireRole('admin'),
  validateBody({
    displayName: { type: 'string', minLength: 1, maxLength: 80 },
    role: { type: 'string' },
  }),
  asyncHandler(async (req, res) => {
    if (req.body.role !== undefined && !isUserRole(req.body.role)) {
      throw new ValidationError(`unknown role ${req.body.role}`);
    }
    const user = await userService.update(req.params.id, req.body);
    res.json(toPublicUser(user));
  }),
);

usersRouter.delete(
  '/:id',
  validateParamUuid('id'),
  requireRole('admin'),
  asyncHandler(async (req, res) => {
    await userService.remove(req.params.id);
    res.status(204).end();
  }),
);
