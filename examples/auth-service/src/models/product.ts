export interface Product {
  id: string;
  sku: string;
  name: string;
  description: string;
  priceCents: number;
  stock: number;
  active: boolean;
}

export interface ProductRow {
  id: string;
  sku: string;
  name: string;
  description: string;
  price_cents: number;
  stock: number;
  active: boolean;
}

export interface ProductFilter {
  search?: string;
  activeOnly?: boolean;
  minPriceCents?: number;
  maxPriceCents?: number;
}

export function mapProductRow(row: ProductRow): Product {
  return {
    id: row.id,
    sku: row.sku,
    name: row.name,
    description: row.description,
    priceCents: row.price_cents,
    stock: row.stock,
    active: row.active,
  };
}

export function isInStock(product: Product, quantity = 1): boolean {
  return product.active && product.stock >= quantity;
}

export function formatPrice(priceCents: number, currency: string): string {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(priceCents / 100);
}

const SKU_PATTERN = /^[A-Z0-9]{3,5}-[A-Z0-9]{3,8}$/;

export function isValidSku(sku: string): boolean {
  return SKU_PATTERN.test(sku);
}
