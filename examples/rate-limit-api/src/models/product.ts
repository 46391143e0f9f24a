export type ProductCategory = 'books' | 'electronics' | 'garden' | 'kitchen' | 'toys';

export const CATEGORIES: readonly ProductCategory[] = ['books', 'electronics', 'garden', 'kitchen', 'toys'];

export interface Product {
  id: string;
  sku: string;
  name: string;
  category: ProductCategory;
  priceCents: number;
  currency: 'EUR' | 'USD' | 'GBP';
  published: boolean;
  createdAt: string;
}

export interface ProductQuery {
  category?: ProductCategory;
  search?: string;
  publishedOnly?: boolean;
  sort?: 'name' | 'price' | 'newest';
}

export function isCategory(value: unknown): value is ProductCategory {
  return typeof value === 'string' && (CATEGORIES as readonly string[]).includes(value);
}

export function compareProducts(sort: ProductQuery['sort'] = 'name') {
  return (a: Product, b: Product): number => {
    switch (sort) {
      case 'price':
        return a.priceCents - b.priceCents || a.name.localeCompare(b.name);
      case 'newest':
        return b.createdAt.localeCompare(a.createdAt);
      case 'name':
      default:
        return a.name.localeCompare(b.name);
    }
  };
}

export function matchesQuery(product: Product, query: ProductQuery): boolean {
  if (query.publishedOnly && !product.published) return false;
  if (query.category && product.category !== query.category) return false;
  if (query.search) {
    const needle = query.search.toLowerCase();
    return product.name.toLowerCase().includes(needle) || product.sku.toLowerCase().includes(needle);
  }
  return true;
}
