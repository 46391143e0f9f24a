import { NextFunction, Request, Response, Router } from 'express';
import { ordersController } from '../controllers/orders.controller';
import { allowValues, requireJsonBody, validateId } from '../middleware/validate';
import { ID_PREFIX } from '../utils/ids';

export const ordersRouter = Router();

const orderId = validateId(ID_PREFIX.order);

/** Orders are always scoped to the user named in the X-User-Id header. */
function scopeToUser(req: Request, res: Response, next: NextFunction): void {
  const header = req.header('x-user-id');
  if (header) res.locals.userId = header.trim();
  next();
}

ordersRouter.use(scopeToUser);

ordersRouter.get('/', ordersController.list);
ordersRouter.post('/', requireJsonBody, ordersController.create);
ordersRouter.get('/:id', orderId, ordersController.show);
ordersRouter.post(
  '/:id/:action',
  orderId,
  allowValues('action', ['place', 'cancel', 'pay', 'ship']),
  ordersController.act,
);
