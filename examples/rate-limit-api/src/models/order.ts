export type OrderStatus = 'draft' | 'placed' | 'paid' | 'shipped' | 'cancelled';

export interface OrderLine {
  productId: string;
  quantity: number;
  unitPriceCents: number;
}

export interface Order {
  id: string;
  userId: string;
  status: OrderStatus;
  lines: OrderLine[];
  totalCents: number;
  currency: string;
  placedAt: string | null;
  createdAt: string;
}

export interface NewOrderLine {
  productId: string;
  quantity: number;
}

const NEXT_STATUSES: Record<OrderStatus, OrderStatus[]> = {
  draft: ['placed', 'cancelled'],
  placed: ['paid', 'cancelled'],
  paid: ['shipped'],
  shipped: [],
  cancelled: [],
};

export function allowedTransitions(status: OrderStatus): OrderStatus[] {
  return NEXT_STATUSES[status];
}

export function canMoveTo(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT_STATUSES[from].includes(to);
}

export function orderTotal(lines: OrderLine[]): number {
  return lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
}

export function isOpen(order: Pick<Order, 'status'>): boolean {
  return order.status === 'draft' || order.status === 'placed';
}
