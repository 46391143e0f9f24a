import { Request, Response } from 'express';
import { isCategory, ProductQuery } from '../models/product';
import { inventoryService } from '../services/inventory.service';
import { productService } from '../services/product.service';
import { BadRequestError } from '../utils/errors';
import { paginate, parsePageRequest } from '../utils/pagination';

const SORTS: ReadonlyArray<NonNullable<ProductQuery['sort']>> = ['name', 'price', 'newest'];

function readQuery(query: Request['query']): ProductQuery {
  const result: ProductQuery = { publishedOnly: query.all !== 'true' };
  if (query.category !== undefined) {
    if (!isCategory(query.category)) throw new BadRequestError(`Unknown category ${String(query.category)}`);
    result.category = query.category;
  }
  if (typeof query.q === 'string' && query.q.trim() !== '') {
    result.search = query.q.trim();
  }
  if (query.sort !== undefined) {
    if (!SORTS.includes(query.sort as never)) {
      throw new BadRequestError(`sort must be one of ${SORTS.join(', ')}`);
    }
    result.sort = query.sort as ProductQuery['sort'];
  }
  return result;
}

export const productsController = {
  list(req: Request, res: Response): void {
    const products = productService.search(readQuery(req.query));
    res.json(paginate(products, parsePageRequest(req.query)));
  },

  show(req: Request, res: Response): void {
    const product = productService.get(req.params.id);
    res.json({ data: product, stock: inventoryService.availability(product.id) });
  },

  create(req: Request, res: Response): void {
    const product = productService.create({ published: false, currency: 'EUR', ...req.body });
    res.status(201).json({ data: product });
  },

  update(req: Request, res: Response): void {
    res.json({ data: productService.update(req.params.id, req.body ?? {}) });
  },

  publish(req: Request, res: Response): void {
    res.json({ data: productService.setPublished(req.params.id, true) });
  },

  restock(req: Request, res: Response): void {
    const quantity = Number(req.body?.quantity);
    if (!Number.isInteger(quantity) || quantity < 1) {
      throw new BadRequestError('quantity must be a positive integer');
    }
    res.json({ data: inventoryService.restock(req.params.id, quantity) });
  },

  lowStock(req: Request, res: Response): void {
    const threshold = req.query.threshold === undefined ? 5 : Number(req.query.threshold);
    if (!Number.isFinite(threshold) || threshold < 0) throw new BadRequestError('threshold must be >= 0');
    res.json({ data: inventoryService.lowStock(threshold) });
  },
};
