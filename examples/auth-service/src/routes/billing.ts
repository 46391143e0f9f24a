import { Router } from 'express';
import { requireAuth, requireRole } from '../auth/auth';
import { validateParamUuid } from '../middleware/validate';
import { invoiceState } from '../models/invoice';
import { billingService } from '../services/billing.service';
import { orderService } from '../services/order.service';
import { userService } from '../services/user.service';
import { asyncHandler } from '../utils/async-handler';

export const billingRouter = Router();

billingRouter.use(requireAuth);

billingRouter.post(
  '/orders/:id/invoice',
  validateParamUuid('id'),
  requireRole('admin', 'support'),
  asyncHandler(async (req, res) => {
    const order = await orderService.getForUser(req.params.id, req.auth!.userId, true);
    const customer = await userService.getById(order.userId);
    const invoice = await billingService.createInvoice(order, customer.email);
    res.status(201).json(invoice);
  }),
);

billingRouter.get(
  '/invoices/:id',
  validateParamUuid('id'),
  asyncHandler(async (req, res) => {
    const invoice = await billingService.getInvoice(req.params.id);
    const isStaff = req.auth!.role !== 'customer';
    // Loading the order enforces that customers only see their own invoices.
    await orderService.getForUser(invoice.orderId, req.auth!.userId, isStaff);
    res.json({ ...invoice, state: invoiceState(invoice) });
  }),
);

billingRouter.post(
  '/invoices/:id/paid',
  validateParamUuid('id'),
  requireRole('admin'),
  asyncHandler(async (req, res) => {
    res.json(await billingService.markPaid(req.params.id));
  }),
);
