import { Database, db as defaultDb } from '../db';
import { compareProducts, isCategory, matchesQuery, Product, ProductQuery } from '../models/product';
import { BadRequestError, ConflictError, NotFoundError } from '../utils/errors';
import { generateId, ID_PREFIX } from '../utils/ids';

export type NewProduct = Omit<Product, 'id' | 'createdAt'>;

export class ProductService {
  constructor(private readonly db: Database = defaultDb) {}

  search(query: ProductQuery = {}): Product[] {
    return this.db.products.find((product) => matchesQuery(product, query)).sort(compareProducts(query.sort));
  }

  get(id: string): Product {
    const product = this.db.products.findById(id);
    if (!product) throw new NotFoundError('Product', id);
    return product;
  }

  create(input: NewProduct): Product {
    if (!isCategory(input.category)) throw new BadRequestError(`Unknown category ${String(input.category)}`);
    if (!Number.isInteger(input.priceCents) || input.priceCents < 0) {
      throw new BadRequestError('priceCents must be a non-negative integer');
    }
    if (this.db.products.findOne((p) => p.sku === input.sku)) {
      throw new ConflictError(`SKU ${input.sku} is already in use`);
    }
    const product = this.db.products.insert({
      ...input,
      id: generateId(ID_PREFIX.product),
      createdAt: new Date().toISOString(),
    });
    this.db.stock.insert({ id: product.id, onHand: 0, reserved: 0 });
    return product;
  }

  update(id: string, changes: Partial<NewProduct>): Product {
    this.get(id);
    if (changes.category !== undefined && !isCategory(changes.category)) {
      throw new BadRequestError(`Unknown category ${String(changes.category)}`);
    }
    const updated = this.db.products.update(id, changes);
    if (!updated) throw new NotFoundError('Product', id);
    return updated;
  }

  setPublished(id: string, published: boolean): Product {
    return this.update(id, { published });
  }
}

export const productService = new ProductService();
