import { randomUUID } from 'crypto';
import { Invoice, InvoiceLine, invoiceTotalCents } from '../models/invoice';
import { BadRequestError, NotFoundError } from '../utils/errors';
import { findPaymentToken, isCardExpired } from './payment-token';

export class InvoiceService {
  private readonly invoices = new Map<string, Invoice>();
  private sequence = 1000;

  create(customerId: string, currency: string, lines: InvoiceLine[]): Invoice {
    if (lines.length === 0) throw new BadRequestError('an invoice needs at least one line');
    const invoice: Invoice = {
      id: randomUUID(),
      number: `INV-${++this.sequence}`,
      customerId,
      currency,
      status: 'draft',
      lines,
      issuedAt: null,
      dueAt: null,
      createdAt: new Date().toISOString(),
    };
    this.invoices.set(invoice.id, invoice);
    return invoice;
  }

  get(id: string): Invoice {
    const invoice = this.invoices.get(id);
    if (!invoice) throw new NotFoundError('invoice');
    return invoice;
  }

  /** Invoices of one customer, oldest first (the pagination helper slices them). */
  listForCustomer(customerId: string): Invoice[] {
    return [...this.invoices.values()]
      .filter((i) => i.customerId === customerId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  send(id: string, netDays = 30): Invoice {
    const invoice = this.get(id);
    if (invoice.status !== 'draft') throw new BadRequestError('only drafts can be sent');
    const issued = new Date();
    invoice.status = 'sent';
    invoice.issuedAt = issued.toISOString();
    invoice.dueAt = new Date(issued.getTime() + netDays * 86_400_000).toISOString();
    return invoice;
  }

  payWithCard(id: string, paymentToken: string): { invoice: Invoice; chargedCents: number } {
    const invoice = this.get(id);
    const card = findPaymentToken(paymentToken);
    if (!card || card.customerId !== invoice.customerId) throw new NotFoundError('payment token');
    if (isCardExpired(card)) throw new BadRequestError('card has expired');
    invoice.status = 'paid';
    return { invoice, chargedCents: invoiceTotalCents(invoice) };
  }
}
