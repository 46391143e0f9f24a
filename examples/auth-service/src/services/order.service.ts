import { queryOne, query, withTransaction } from '../db/pool';
import { canTransition, mapOrderRow, Order, OrderItem, OrderRow, OrderStatus, subtotalOf } from '../models/order';
import { isInStock } from '../models/product';
import { NotFoundError, ValidationError, ForbiddenError } from '../utils/errors';
import { logger } from '../utils/logger';
import { couponService } from './coupon.service';
import { productService } from './product.service';

export interface OrderLineInput {
  productId: string;
  quantity: number;
}

export interface PlaceOrderInput {
  userId: string;
  lines: OrderLineInput[];
  couponCode?: string;
}

export class OrderService {
  async place(input: PlaceOrderInput): Promise<Order> {
    if (input.lines.length === 0) throw new ValidationError('an order needs at least one item');

    const items: OrderItem[] = [];
    for (const line of input.lines) {
      if (!Number.isInteger(line.quantity) || line.quantity <= 0) {
        throw new ValidationError(`invalid quantity for product ${line.productId}`);
      }
      const product = await productService.getById(line.productId);
      if (!isInStock(product, line.quantity)) {
        throw new ValidationError(`${product.name} is out of stock`);
      }
      items.push({
        productId: product.id,
        sku: product.sku,
        name: product.name,
        quantity: line.quantity,
        unitPriceCents: product.priceCents,
      });
    }

    const subtotalCents = subtotalOf(items);
    const discount = input.couponCode ? await couponService.check(input.couponCode, subtotalCents) : undefined;

    const order = await withTransaction(async (client) => {
      for (const item of items) {
        await client.query('UPDATE products SET stock = stock - $2 WHERE id = $1', [item.productId, item.quantity]);
      }
      const result = await client.query<OrderRow>(
        `INSERT INTO orders (user_id, items, subtotal_cents, discount_cents, coupon_code)
         VALUES ($1, $2, $3, $4, $5) RETURNING *`,
        [input.userId, JSON.stringify(items), subtotalCents, discount?.discountCents ?? 0, discount?.coupon.code ?? null],
      );
      return mapOrderRow(result.rows[0]);
    });

    if (discount) await couponService.redeem(discount.coupon.code);
    logger.info('order placed', { orderId: order.id, userId: input.userId, items: items.length });
    return order;
  }

  async getForUser(orderId: string, userId: string, isStaff = false): Promise<Order> {
    const row = await queryOne<OrderRow>('SELECT * FROM orders WHERE id = $1', [orderId]);
    if (!row) throw new NotFoundError('order', orderId);
    const order = mapOrderRow(row);
    if (!isStaff && order.userId !== userId) throw new ForbiddenError('not your order');
    return order;
  }

  async listForUser(userId: string): Promise<Order[]> {
    const rows = await query<OrderRow>('SELECT * FROM orders WHERE user_id = $1 ORDER BY created_at DESC', [userId]);
    return rows.map(mapOrderRow);
  }

  async updateStatus(orderId: string, next: OrderStatus): Promise<Order> {
    const row = await queryOne<OrderRow>('SELECT * FROM orders WHERE id = $1', [orderId]);
    if (!row) throw new NotFoundError('order', orderId);
    if (!canTransition(row.status, next)) {
      throw new ValidationError(`cannot move order from ${row.status} to ${next}`);
    }
    const updated = await queryOne<OrderRow>('UPDATE orders SET status = $2 WHERE id = $1 RETURNING *', [orderId, next]);
    return mapOrderRow(updated as OrderRow);
  }
}

export const orderService = new OrderService();
