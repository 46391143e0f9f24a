export interface Product {
  sku: string;
  name: string;
  description: string;
  category: string;
  /** Net price in euro cents. */
  priceEurCents: number;
  active: boolean;
  updatedAt: string;
}

export function isSellable(product: Product): boolean {
  return product.active && product.priceEurCents > 0;
}

export function toPublicProduct(product: Product) {
  const { sku, name, description, category, updatedAt } = product;
  return { sku, name, description, category, updatedAt };
}
