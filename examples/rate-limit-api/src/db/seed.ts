import { Product } from '../models/product';
import { User } from '../models/user';
import { logger } from '../utils/logger';
import { Database, db as defaultDb } from './index';

const now = () => new Date().toISOString();

const users: Array<Omit<User, 'createdAt' | 'updatedAt'>> = [
  { id: 'usr_alice00001', email: 'alice@example.test', name: 'Alice Martin', status: 'active', marketingOptIn: true },
  { id: 'usr_bob0000002', email: 'bob@example.test', name: 'Bob Okafor', status: 'active', marketingOptIn: false },
  { id: 'usr_carol00003', email: 'carol@example.test', name: 'Carol Nguyen', status: 'suspended', marketingOptIn: false },
];

const products: Array<Omit<Product, 'createdAt'>> = [
  { id: 'prd_kettle0001', sku: 'KIT-KETTLE', name: 'Stainless kettle', category: 'kitchen', priceCents: 3499, currency: 'EUR', published: true },
  { id: 'prd_trowel0002', sku: 'GRD-TROWEL', name: 'Hand trowel', category: 'garden', priceCents: 1299, currency: 'EUR', published: true },
  { id: 'prd_novel00003', sku: 'BK-NOVEL-17', name: 'The Long Harbour', category: 'books', priceCents: 1850, currency: 'EUR', published: true },
  { id: 'prd_robot00004', sku: 'TOY-ROBOT', name: 'Wind-up robot', category: 'toys', priceCents: 999, currency: 'EUR', published: false },
  { id: 'prd_earbud0005', sku: 'ELC-EARBUDS', name: 'Wireless earbuds', category: 'electronics', priceCents: 5900, currency: 'EUR', published: true },
];

const stock: Record<string, number> = {
  prd_kettle0001: 25,
  prd_trowel0002: 140,
  prd_novel00003: 12,
  prd_robot00004: 0,
  prd_earbud0005: 60,
};

export function seed(database: Database = defaultDb): void {
  const createdAt = now();
  for (const user of users) {
    if (!database.users.findById(user.id)) {
      database.users.insert({ ...user, createdAt, updatedAt: createdAt });
    }
  }
  for (const product of products) {
    if (!database.products.findById(product.id)) {
      database.products.insert({ ...product, createdAt });
      database.stock.insert({ id: product.id, onHand: stock[product.id] ?? 0, reserved: 0 });
    }
  }
  logger.info('seeded database', {
    users: database.users.count(),
    products: database.products.count(),
  });
}

if (require.main === module) {
  seed();
}
