export type InvoiceStatus = 'draft' | 'sent' | 'paid' | 'void';

export interface InvoiceLine {
  description: string;
  quantity: number;
  unitPriceCents: number;
}

export interface Invoice {
  id: string;
  number: string;
  customerId: string;
  currency: string;
  status: InvoiceStatus;
  lines: InvoiceLine[];
  issuedAt: string | null;
  dueAt: string | null;
  createdAt: string;
}

export function invoiceTotalCents(invoice: Pick<Invoice, 'lines'>): number {
  return invoice.lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0);
}

export function isOverdue(invoice: Invoice, now: Date = new Date()): boolean {
  return invoice.status === 'sent' && invoice.dueAt !== null && new Date(invoice.dueAt) < now;
}
