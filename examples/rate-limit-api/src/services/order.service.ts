import { Database, db as defaultDb } from '../db';
import { canMoveTo, NewOrderLine, Order, OrderLine, OrderStatus, orderTotal } from '../models/order';
import { BadRequestError, ConflictError, NotFoundError } from '../utils/errors';
import { generateId, ID_PREFIX } from '../utils/ids';
import { logger } from '../utils/logger';
import { InventoryService } from './inventory.service';
import { ProductService } from './product.service';
import { UserService } from './user.service';

export class OrderService {
  private readonly users: UserService;
  private readonly products: ProductService;
  private readonly inventory: InventoryService;

  constructor(private readonly db: Database = defaultDb) {
    this.users = new UserService(db);
    this.products = new ProductService(db);
    this.inventory = new InventoryService(db);
  }

  listForUser(userId: string): Order[] {
    return this.db.orders
      .find((order) => order.userId === userId)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  get(id: string): Order {
    const order = this.db.orders.findById(id);
    if (!order) throw new NotFoundError('Order', id);
    return order;
  }

  create(userId: string, requested: NewOrderLine[]): Order {
    this.users.assertActive(userId);
    if (!Array.isArray(requested) || requested.length === 0) {
      throw new BadRequestError('An order needs at least one line');
    }
    const lines: OrderLine[] = requested.map((line) => {
      if (!Number.isInteger(line.quantity) || line.quantity < 1) {
        throw new BadRequestError(`Invalid quantity for ${line.productId}`);
      }
      const product = this.products.get(line.productId);
      if (!product.published) throw new BadRequestError(`${product.name} is not for sale`);
      return { productId: product.id, quantity: line.quantity, unitPriceCents: product.priceCents };
    });
    return this.db.orders.insert({
      id: generateId(ID_PREFIX.order),
      userId,
      status: 'draft',
      lines,
      totalCents: orderTotal(lines),
      currency: 'EUR',
      placedAt: null,
      createdAt: new Date().toISOString(),
    });
  }

  place(id: string): Order {
    const order = this.transition(id, 'placed');
    for (const line of order.lines) this.inventory.reserve(line.productId, line.quantity);
    const placed = this.db.orders.update(id, { status: 'placed', placedAt: new Date().toISOString() });
    logger.info('order placed', { orderId: id, totalCents: order.totalCents });
    return placed as Order;
  }

  cancel(id: string): Order {
    const order = this.transition(id, 'cancelled');
    if (order.status === 'placed') {
      for (const line of order.lines) this.inventory.release(line.productId, line.quantity);
    }
    return this.db.orders.update(id, { status: 'cancelled' }) as Order;
  }

  ship(id: string): Order {
    const order = this.transition(id, 'shipped');
    for (const line of order.lines) this.inventory.commit(line.productId, line.quantity);
    return this.db.orders.update(id, { status: 'shipped' }) as Order;
  }

  markPaid(id: string): Order {
    this.transition(id, 'paid');
    return this.db.orders.update(id, { status: 'paid' }) as Order;
  }

  private transition(id: string, next: OrderStatus): Order {
    const order = this.get(id);
    if (!canMoveTo(order.status, next)) {
      throw new ConflictError(`Order ${id} cannot go from ${order.status} to ${next}`);
    }
    return order;
  }
}

export const orderService = new OrderService();
