import { Router } from 'express';
import { usersController } from '../controllers/users.controller';
import { requireJsonBody, validateId } from '../middleware/validate';
import { ID_PREFIX } from '../utils/ids';

export const usersRouter = Router();

const userId = validateId(ID_PREFIX.user);

usersRouter.get('/', usersController.list);
usersRouter.post('/', requireJsonBody, usersController.create);
usersRouter.get('/:id', userId, usersController.show);
usersRouter.patch('/:id', userId, requireJsonBody, usersController.update);
usersRouter.delete('/:id', userId, usersController.remove);
usersRouter.get('/:id/orders', userId, usersController.orders);
