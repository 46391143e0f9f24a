import { Router } from 'express';
import { requireAuth, requireRole } from '../auth/auth';
import { validateBody, validateParamUuid } from '../middleware/validate';
import { productService } from '../services/product.service';
import { asyncHandler } from '../utils/async-handler';

export const productsRouter = Router();

function optionalInt(value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number.parseInt(String(value), 10);
  return Number.isNaN(parsed) ? undefined : parsed;
}

productsRouter.get(
  '/',
  asyncHandler(async (req, res) => {
    const products = await productService.list({
      search: typeof req.query.q === 'string' ? req.query.q : undefined,
      minPriceCents: optionalInt(req.query.minPrice),
      maxPriceCents: optionalInt(req.query.maxPrice),
    });
    res.json(products);
  }),
);

productsRouter.get(
  '/:id',
  validateParamUuid('id'),
  asyncHandler(async (req, res) => {
    res.json(await productService.getById(req.params.id));
  }),
);

productsRouter.post(
  '/',
  requireAuth,
  requireRole('admin'),
  validateBody({
    sku: { type: 'string', required: true },
    name: { type: 'string', required: true, maxLength: 200 },
    description: { type: 'string', maxLength: 5000 },
    priceCents: { type: 'number', required: true, min: 0 },
    stock: { type: 'number', required: true, min: 0 },
  }),
  asyncHandler(async (req, res) => {
    const product = await productService.create({
      sku: req.body.sku,
      name: req.body.name,
      description: req.body.description ?? '',
      priceCents: req.body.priceCents,
      stock: req.body.stock,
      active: true,
    });
    res.status(201).json(product);
  }),
);

productsRouter.post(
  '/:id/stock',
  requireAuth,
  requireRole('admin', 'support'),
  validateParamUuid('id'),
  validateBody({ delta: { type: 'number', required: true } }),
  asyncHandler(async (req, res) => {
    res.json(await productService.adjustStock(req.params.id, req.body.delta));
  }),
);
