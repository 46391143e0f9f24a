import { Router } from 'express';
import { routeBudgets, defaultBudget } from '../config/rate-limits';
import { checkConnection } from '../db/pool';
import { productService } from '../services/product.service';
import { asyncHandler } from '../utils/async-handler';

export const healthRouter = Router();

const startedAt = Date.now();

healthRouter.get('/live', (_req, res) => {
  res.json({ status: 'ok' });
});

healthRouter.get(
  '/ready',
  asyncHandler(async (_req, res) => {
    const db = await checkConnection();
    const status = db.ok ? 200 : 503;
    res.status(status).json({
      status: db.ok ? 'ok' : 'degraded',
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      database: db,
      productCache: productService.cacheStats(),
    });
  }),
);

healthRouter.get('/limits', (_req, res) => {
  res.json({ default: defaultBudget, routes: routeBudgets });
});
