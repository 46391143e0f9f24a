import express, { Express, NextFunction, Request, Response, Router } from 'express';
import { Catalog } from '../domain/catalog';
import { FxRates } from '../domain/fx-rates';
import { Settings } from '../settings';
import { ApiError } from '../support/errors';
import { log } from '../support/log';
import { createGuardRegistry, GuardName } from './guards';
import { healthHandler } from './handlers/health';
import { productHandlers } from './handlers/products';
import { priceHandlers } from './handlers/prices';

export interface Deps {
  settings: Settings;
  catalog: Catalog;
  fx: FxRates;
}

interface RouteGroup {
  prefix: string;
  guards: GuardName[];
  router: Router;
}

/** Puts every handler behind the guards its group asks for. */
export function mountApi(app: Express, deps: Deps): void {
  const guards = createGuardRegistry(deps.settings);
  app.use(express.json({ limit: deps.settings.maxBodyBytes }));
  app.get('/healthz', healthHandler);

  const keys = Router();
  keys.post('/verify', (req, res) => {
    res.json({ valid: deps.settings.apiKeys.has(String(req.body?.key ?? '')) });
  });

  const groups: RouteGroup[] = [
    // key probing is the one endpoint worth slowing down
    { prefix: '/v1/keys', guards: ['bodySize', 'throttle'], router: keys },
    { prefix: '/v1/products', guards: ['apiKey'], router: productHandlers(deps.catalog, deps.settings) },
    { prefix: '/v1/prices', guards: ['apiKey'], router: priceHandlers(deps.catalog, deps.fx) },
  ];
  for (const group of groups) {
    app.use(group.prefix, ...guards.build(group.guards), group.router);
  }

  app.use((_req: Request, res: Response) => res.status(404).json({ error: 'not_found' }));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof ApiError) {
      res.set(err.headers).status(err.status).json({ error: err.code, message: err.message });
      return;
    }
    log.error('unhandled', { path: req.path, err: String(err) });
    res.status(500).json({ error: 'internal' });
  });
}
