import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeInvoiceTotals } from '../src/services/billing.service';
import { formatInvoiceNumber, invoiceState, Invoice } from '../src/models/invoice';
import { canTransition, subtotalOf, totalOf } from '../src/models/order';

test('computeInvoiceTotals splits a gross amount into net and tax', () => {
  assert.deepEqual(computeInvoiceTotals(12_000, 0.2), { netCents: 10_000, taxCents: 2_000, totalCents: 12_000 });
  assert.deepEqual(computeInvoiceTotals(0, 0.2), { netCents: 0, taxCents: 0, totalCents: 0 });
});

test('computeInvoiceTotals rejects negative amounts', () => {
  assert.throws(() => computeInvoiceTotals(-1, 0.2), RangeError);
});

test('invoice numbers are zero padded per year', () => {
  assert.equal(formatInvoiceNumber(new Date('2024-06-01T00:00:00Z'), 42), 'INV-2024-000042');
});

test('an unpaid invoice becomes overdue after its due date', () => {
  const invoice: Invoice = {
    id: 'inv-1',
    orderId: 'order-1',
    number: 'INV-2024-000001',
    totalCents: 1_000,
    taxCents: 167,
    currency: 'EUR',
    issuedAt: new Date('2024-01-01T00:00:00Z'),
    dueAt: new Date('2024-01-31T00:00:00Z'),
    paidAt: null,
  };
  assert.equal(invoiceState(invoice, new Date('2024-01-15T00:00:00Z')), 'open');
  assert.equal(invoiceState(invoice, new Date('2024-02-01T00:00:00Z')), 'overdue');
  assert.equal(invoiceState({ ...invoice, paidAt: new Date() }), 'paid');
});

test('order totals and status transitions', () => {
  const items = [
    { productId: 'p1', sku: 'ABC-123', name: 'Mug', quantity: 2, unitPriceCents: 850 },
    { productId: 'p2', sku: 'ABC-456', name: 'Tea', quantity: 1, unitPriceCents: 499 },
  ];
  const subtotalCents = subtotalOf(items);
  assert.equal(subtotalCents, 2_199);
  assert.equal(totalOf({ subtotalCents, discountCents: 300 }), 1_899);
  assert.equal(canTransition('pending', 'paid'), true);
  assert.equal(canTransition('delivered', 'pending'), false);
});
