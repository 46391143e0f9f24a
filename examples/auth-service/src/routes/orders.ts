import { Router } from 'express';
import { requireAuth, requireRole } from '../auth/auth';
import { validateBody, validateParamUuid } from '../middleware/validate';
import { OrderStatus } from '../models/order';
import { billingService } from '../services/billing.service';
import { orderService } from '../services/order.service';
import { asyncHandler } from '../utils/async-handler';

export const ordersRouter = Router();

ordersRouter.use(requireAuth);

ordersRouter.get(
  '/',
  asyncHandler(async (req, res) => {
    res.json(await orderService.listForUser(req.auth!.userId));
  }),
);

ordersRouter.post(
  '/',
  validateBody({
    lines: { type: 'array', required: true },
    couponCode: { type: 'string', maxLength: 32 },
  }),
  asyncHandler(async (req, res) => {
    await billingService.assertNoOverdueInvoices(req.auth!.userId);
    const order = await orderService.place({
      userId: req.auth!.userId,
      lines: req.body.lines,
      couponCode: req.body.couponCode,
    });
    res.status(201).json(order);
  }),
);

ordersRouter.get(
  '/:id',
  validateParamUuid('id'),
  asyncHandler(async (req, res) => {
    const isStaff = req.auth!.role !== 'customer';
    res.json(await orderService.getForUser(req.params.id, req.auth!.userId, isStaff));
  }),
);

ordersRouter.post(
  '/:id/status',
  validateParamUuid('id'),
  requireRole('admin', 'support'),
  validateBody({ status: { type: 'string', required: true } }),
  asyncHandler(async (req, res) => {
    const order = await orderService.updateStatus(req.params.id, req.body.status as OrderStatus);
    res.json(order);
  }),
);
