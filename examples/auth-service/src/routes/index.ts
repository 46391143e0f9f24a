import { Router } from 'express';
import { accountRouter } from './account';
import { billingRouter } from './billing';
import { healthRouter } from './health';
import { ordersRouter } from './orders';
import { productsRouter } from './products';
import { usersRouter } from './users';

export function buildRouter(): Router {
  const router = Router();
  router.use('/health', healthRouter);
  router.use('/account', accountRouter);
  router.use('/users', usersRouter);
  router.use('/products', productsRouter);
  router.use('/orders', ordersRouter);
  router.use('/billing', billingRouter);
  return router;
}
