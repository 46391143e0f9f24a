import { config } from '../config';
import { query, queryOne } from '../db/pool';
import { formatInvoiceNumber, Invoice, InvoiceRow, invoiceState, mapInvoiceRow } from '../models/invoice';
import { Order, totalOf } from '../models/order';
import { addDays } from '../utils/date';
import { ConflictError, NotFoundError, PaymentRequiredError } from '../utils/errors';
import { logger } from '../utils/logger';
import { notificationService } from './notification.service';

export interface InvoiceTotals {
  netCents: number;
  taxCents: number;
  totalCents: number;
}

/** Prices are tax inclusive; split a gross amount into net and tax parts. */
export function computeInvoiceTotals(grossCents: number, taxRate: number): InvoiceTotals {
  if (grossCents < 0) throw new RangeError('gross amount must not be negative');
  const netCents = Math.round(grossCents / (1 + taxRate));
  return { netCents, taxCents: grossCents - netCents, totalCents: grossCents };
}

export class BillingService {
  async createInvoice(order: Order, customerEmail: string): Promise<Invoice> {
    const existing = await queryOne<InvoiceRow>('SELECT * FROM invoices WHERE order_id = $1', [order.id]);
    if (existing) throw new ConflictError(`order ${order.id} is already invoiced`);

    const issuedAt = new Date();
    const totals = computeInvoiceTotals(totalOf(order), config.billing.taxRate);
    const sequenceRow = await queryOne<{ count: string }>(
      'SELECT count(*) FROM invoices WHERE extract(year FROM issued_at) = $1',
      [issuedAt.getUTCFullYear()],
    );
    const number = formatInvoiceNumber(issuedAt, Number(sequenceRow?.count ?? 0) + 1);
    const dueAt = addDays(issuedAt, config.billing.paymentTermsDays);

    const row = await queryOne<InvoiceRow>(
      `INSERT INTO invoices (order_id, number, total_cents, tax_cents, currency, issued_at, due_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [order.id, number, totals.totalCents, totals.taxCents, config.billing.currency, issuedAt, dueAt],
    );
    const invoice = mapInvoiceRow(row as InvoiceRow);
    await notificationService.sendInvoice(customerEmail, invoice);
    logger.info('invoice created', { invoiceId: invoice.id, orderId: order.id, number });
    return invoice;
  }

  async getInvoice(id: string): Promise<Invoice> {
    const row = await queryOne<InvoiceRow>('SELECT * FROM invoices WHERE id = $1', [id]);
    if (!row) throw new NotFoundError('invoice', id);
    return mapInvoiceRow(row);
  }

  async markPaid(id: string, paidAt: Date = new Date()): Promise<Invoice> {
    const invoice = await this.getInvoice(id);
    if (invoice.paidAt) throw new ConflictError(`invoice ${invoice.number} is already paid`);
    const row = await queryOne<InvoiceRow>('UPDATE invoices SET paid_at = $2 WHERE id = $1 RETURNING *', [id, paidAt]);
    return mapInvoiceRow(row as InvoiceRow);
  }

  async assertNoOverdueInvoices(userId: string): Promise<void> {
    const rows = await query<InvoiceRow>(
      `SELECT i.* FROM invoices i JOIN orders o ON o.id = i.order_id
       WHERE o.user_id = $1 AND i.paid_at IS NULL`,
      [userId],
    );
    const overdue = rows.map(mapInvoiceRow).filter((invoice) => invoiceState(invoice) === 'overdue');
    if (overdue.length > 0) {
      throw new PaymentRequiredError('account has overdue invoices', overdue.map((invoice) => invoice.number));
    }
  }
}

export const billingService = new BillingService();
