import { Router } from 'express';
import { Catalog } from '../../domain/catalog';
import { FxRates } from '../../domain/fx-rates';
import { notFound } from '../../support/errors';

export function priceHandlers(catalog: Catalog, fx: FxRates): Router {
  const router = Router();

  router.get('/:sku', (req, res) => {
    const product = catalog.find(req.params.sku);
    if (!product || !product.active) throw notFound(`price for ${req.params.sku}`);
    const currency = typeof req.query.currency === 'string' ? req.query.currency.toUpperCase() : 'EUR';
    res.json({
      sku: product.sku,
      currency,
      amountMinor: fx.convert(product.priceEurCents, currency),
      rateDate: fx.asOf,
    });
  });

  return router;
}
