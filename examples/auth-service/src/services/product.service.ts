import { query, queryOne } from '../db/pool';
import { config } from '../config';
import { mapProductRow, Product, ProductFilter, ProductRow, isValidSku } from '../models/product';
import { TtlCache } from '../utils/cache';
import { NotFoundError, ValidationError } from '../utils/errors';

const listingCache = new TtlCache<string, Product[]>({
  ttlMs: config.cache.defaultTtlMs,
  maxEntries: config.cache.maxEntries,
});

function cacheKey(filter: ProductFilter): string {
  return JSON.stringify([filter.search ?? '', filter.activeOnly ?? true, filter.minPriceCents, filter.maxPriceCents]);
}

export class ProductService {
  async list(filter: ProductFilter = {}): Promise<Product[]> {
    return listingCache.getOrLoad(cacheKey(filter), async () => {
      const clauses: string[] = [];
      const params: unknown[] = [];
      if (filter.activeOnly ?? true) clauses.push('active = TRUE');
      if (filter.search) {
        params.push(`%${filter.search}%`);
        clauses.push(`(name ILIKE $${params.length} OR sku ILIKE $${params.length})`);
      }
      if (filter.minPriceCents !== undefined) {
        params.push(filter.minPriceCents);
        clauses.push(`price_cents >= $${params.length}`);
      }
      if (filter.maxPriceCents !== undefined) {
        params.push(filter.maxPriceCents);
        clauses.push(`price_cents <= $${params.length}`);
      }
      const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
      const rows = await query<ProductRow>(`SELECT * FROM products ${where} ORDER BY name`, params);
      return rows.map(mapProductRow);
    });
  }

  async getById(id: string): Promise<Product> {
    const row = await queryOne<ProductRow>('SELECT * FROM products WHERE id = $1', [id]);
    if (!row) throw new NotFoundError('product', id);
    return mapProductRow(row);
  }

  async create(input: Omit<Product, 'id'>): Promise<Product> {
    if (!isValidSku(input.sku)) throw new ValidationError(`invalid sku ${input.sku}`);
    if (input.priceCents < 0) throw new ValidationError('price must not be negative');
    const row = await queryOne<ProductRow>(
      `INSERT INTO products (sku, name, description, price_cents, stock, active)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [input.sku, input.name, input.description, input.priceCents, input.stock, input.active],
    );
    listingCache.clear();
    return mapProductRow(row as ProductRow);
  }

  async adjustStock(id: string, delta: number): Promise<Product> {
    const row = await queryOne<ProductRow>(
      'UPDATE products SET stock = stock + $2 WHERE id = $1 AND stock + $2 >= 0 RETURNING *',
      [id, delta],
    );
    if (!row) throw new ValidationError(`not enough stock for product ${id}`);
    listingCache.clear();
    return mapProductRow(row);
  }

  cacheStats() {
    return listingCache.stats();
  }
}

export const productService = new ProductService();
