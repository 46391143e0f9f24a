import { Order } from '../models/order';
import { Product } from '../models/product';
import { User } from '../models/user';
import { Collection } from './collection';

export interface StockLevel {
  id: string; // product id
  onHand: number;
  reserved: number;
}

export interface Database {
  users: Collection<User>;
  products: Collection<Product>;
  orders: Collection<Order>;
  stock: Collection<StockLevel>;
}

export function createDatabase(): Database {
  return {
    users: new Collection<User>('users'),
    products: new Collection<Product>('products'),
    orders: new Collection<Order>('orders'),
    stock: new Collection<StockLevel>('stock'),
  };
}

/** Process-wide database used by the running service. Tests create their own. */
export const db: Database = createDatabase();
