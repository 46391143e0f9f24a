import { Router } from 'express';
import { Catalog } from '../../domain/catalog';
import { toPublicProduct } from '../../domain/product';
import { Settings } from '../../settings';
import { notFound } from '../../support/errors';
import { pageLinks, pageOf, parsePageParams } from '../../support/paginate';

export function productHandlers(catalog: Catalog, settings: Settings): Router {
  const router = Router();

  router.get('/', (req, res) => {
    const params = parsePageParams(req.query, {
      defaultLimit: settings.defaultPageSize,
      maxLimit: settings.maxPageSize,
    });
    const category = typeof req.query.category === 'string' ? req.query.category : undefined;
    const page = pageOf(catalog.list(category).map(toPublicProduct), params);
    const links = pageLinks(`${req.baseUrl}`, params, page.total);
    if (links) res.setHeader('Link', links);
    res.json(page);
  });

  router.get('/categories', (_req, res) => {
    res.json({ categories: catalog.categories() });
  });

  router.get('/:sku', (req, res) => {
    const product = catalog.find(req.params.sku);
    if (!product) throw notFound(`product ${req.params.sku}`);
    res.json(toPublicProduct(product));
  });

  return router;
}
