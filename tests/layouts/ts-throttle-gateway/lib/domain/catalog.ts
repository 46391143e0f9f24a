import { promises as fs } from 'fs';
import { Product, isSellable } from './product';

/** The catalog as exported nightly by the ERP, held in memory. */
export class Catalog {
  private constructor(private readonly bySku: Map<string, Product>) {}

  static async load(file: string): Promise<Catalog> {
    const raw = JSON.parse(await fs.readFile(file, 'utf8')) as Product[];
    return Catalog.of(raw);
  }

  static of(products: Product[]): Catalog {
    return new Catalog(new Map(products.map((p) => [p.sku, p])));
  }

  find(sku: string): Product | undefined {
    return this.bySku.get(sku);
  }

  /** Sellable products, optionally of one category, sorted by SKU. */
  list(category?: string): Product[] {
    return [...this.bySku.values()]
      .filter((p) => isSellable(p) && (!category || p.category === category))
      .sort((a, b) => a.sku.localeCompare(b.sku));
  }

  categories(): string[] {
    return [...new Set([...this.bySku.values()].map((p) => p.category))].sort();
  }
}
