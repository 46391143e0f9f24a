import { Database, db as defaultDb, StockLevel } from '../db';
import { ConflictError, NotFoundError } from '../utils/errors';

export interface Availability {
  productId: string;
  onHand: number;
  reserved: number;
  available: number;
}

export class InventoryService {
  constructor(private readonly db: Database = defaultDb) {}

  private level(productId: string): StockLevel {
    const level = this.db.stock.findById(productId);
    if (!level) throw new NotFoundError('Stock level', productId);
    return level;
  }

  availability(productId: string): Availability {
    const { onHand, reserved } = this.level(productId);
    return { productId, onHand, reserved, available: onHand - reserved };
  }

  /** Holds stock for an order that has been placed but not yet paid. */
  reserve(productId: string, quantity: number): void {
    const level = this.level(productId);
    if (level.onHand - level.reserved < quantity) {
      throw new ConflictError(`Only ${level.onHand - level.reserved} of ${productId} left`);
    }
    this.db.stock.update(productId, { reserved: level.reserved + quantity });
  }

  release(productId: string, quantity: number): void {
    const level = this.level(productId);
    this.db.stock.update(productId, { reserved: Math.max(0, level.reserved - quantity) });
  }

  /** Converts a reservation into a shipment: stock leaves the warehouse. */
  commit(productId: string, quantity: number): void {
    const level = this.level(productId);
    this.db.stock.update(productId, {
      onHand: level.onHand - quantity,
      reserved: Math.max(0, level.reserved - quantity),
    });
  }

  restock(productId: string, quantity: number): Availability {
    const level = this.level(productId);
    this.db.stock.update(productId, { onHand: level.onHand + quantity });
    return this.availability(productId);
  }

  lowStock(threshold = 5): Availability[] {
    return this.db.stock
      .find((level) => level.onHand - level.reserved <= threshold)
      .map((level) => this.availability(level.id));
  }
}

export const inventoryService = new InventoryService();
