export interface Invoice {
  id: string;
  orderId: string;
  number: string;
  totalCents: number;
  taxCents: number;
  currency: string;
  issuedAt: Date;
  dueAt: Date;
  paidAt: Date | null;
}

export interface InvoiceRow {
  id: string;
  order_id: string;
  number: string;
  total_cents: number;
  tax_cents: number;
  currency: string;
  issued_at: Date;
  due_at: Date;
  paid_at: Date | null;
}

export type InvoiceState = 'open' | 'overdue' | 'paid';

export function mapInvoiceRow(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    orderId: row.order_id,
    number: row.number,
    totalCents: row.total_cents,
    taxCents: row.tax_cents,
    currency: row.currency,
    issuedAt: row.issued_at,
    dueAt: row.due_at,
    paidAt: row.paid_at,
  };
}

export function invoiceState(invoice: Invoice, now: Date = new Date()): InvoiceState {
  if (invoice.paidAt) return 'paid';
  return now.getTime() > invoice.dueAt.getTime() ? 'overdue' : 'open';
}

/**
 * Invoice numbers look like INV-2024-000123: year of issue plus a
 * zero-padded sequence number.
 */
export function formatInvoiceNumber(issuedAt: Date, sequence: number): string {
  return `INV-${issuedAt.getUTCFullYear()}-${String(sequence).padStart(6, '0')}`;
}
