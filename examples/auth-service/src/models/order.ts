export type OrderStatus = 'pending' | 'paid' | 'shipped' | 'delivered' | 'cancelled' | 'refunded';

export interface OrderItem {
  productId: string;
  sku: string;
  name: string;
  quantity: number;
  unitPriceCents: number;
}

export interface Order {
  id: string;
  userId: string;
  status: OrderStatus;
  items: OrderItem[];
  subtotalCents: number;
  discountCents: number;
  couponCode: string | null;
  createdAt: Date;
}

export interface OrderRow {
  id: string;
  user_id: string;
  status: OrderStatus;
  items: OrderItem[];
  subtotal_cents: number;
  discount_cents: number;
  coupon_code: string | null;
  created_at: Date;
}

const TRANSITIONS: Record<OrderStatus, OrderStatus[]> = {
  pending: ['paid', 'cancelled'],
  paid: ['shipped', 'refunded', 'cancelled'],
  shipped: ['delivered', 'refunded'],
  delivered: ['refunded'],
  cancelled: [],
  refunded: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function subtotalOf(items: OrderItem[]): number {
  return items.reduce((sum, item) => sum + item.quantity * item.unitPriceCents, 0);
}

export function totalOf(order: Pick<Order, 'subtotalCents' | 'discountCents'>): number {
  return Math.max(0, order.subtotalCents - order.discountCents);
}

export function mapOrderRow(row: OrderRow): Order {
  return {
    id: row.id,
    userId: row.user_id,
    status: row.status,
    items: row.items,
    subtotalCents: row.subtotal_cents,
    discountCents: row.discount_cents,
    couponCode: row.coupon_code,
    createdAt: row.created_at,
  };
}
