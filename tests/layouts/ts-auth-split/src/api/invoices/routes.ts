import { Router } from 'express';
import { AppConfig } from '../../config';
import { InvoiceService } from '../../billing/invoice-service';
import { SessionManager } from '../../session/manager';
import { BadRequestError } from '../../utils/errors';
import { requireAuth, requireScope } from '../auth/authenticate';
import { paginate } from './pagination';

export function invoiceRoutes(config: AppConfig, sessions: SessionManager, invoices: InvoiceService): Router {
  const router = Router();
  router.use(requireAuth(config, sessions));

  router.get('/', requireScope('invoices:read'), (req, res) => {
    const customerId = String(req.query.customer ?? '');
    if (!customerId) throw new BadRequestError('customer is required');
    const pageToken = typeof req.query.pageToken === 'string' ? req.query.pageToken : undefined;
    res.json(paginate(invoices.listForCustomer(customerId), config.invoicePageSize, pageToken));
  });

  router.get('/:id', requireScope('invoices:read'), (req, res) => {
    res.json(invoices.get(req.params.id));
  });

  router.post('/', requireScope('invoices:write'), (req, res) => {
    const { customerId, currency, lines } = req.body ?? {};
    res.status(201).json(invoices.create(customerId, currency ?? 'EUR', lines ?? []));
  });

  router.post('/:id/send', requireScope('invoices:write'), (req, res) => {
    res.json(invoices.send(req.params.id, Number(req.body?.netDays ?? 30)));
  });

  router.post('/:id/pay', requireScope('invoices:write'), (req, res) => {
    res.json(invoices.payWithCard(req.params.id, String(req.body?.paymentToken ?? '')));
  });

  return router;
}
