import { Express, Router } from 'express';
import { config } from './config';
import { buildChain, commonMiddleware, errorHandler, notFound } from './middleware';
import { healthRouter } from './routes/health';
import { ordersRouter } from './routes/orders';
import { productsRouter } from './routes/products';
import { usersRouter } from './routes/users';

export const API_PREFIX = '/api';

interface Mount {
  path: string;
  router: Router;
  chain: ReturnType<typeof buildChain>;
}

/**
 * Wires every router of the service onto the app under /api.
 *
 *   GET  /api/health            open, never throttled (used by the load balancer)
 *   *    /api/users             API key + throttle
 *   *    /api/products          API key + throttle
 *   *    /api/orders            API key + stricter throttle (writes are expensive)
 */
export function setupRouter(app: Express): void {
  app.use(commonMiddleware());

  const mounts: Mount[] = [
    { path: '/health', router: healthRouter, chain: buildChain({ auth: false, throttle: false }) },
    { path: '/users', router: usersRouter, chain: buildChain() },
    { path: '/products', router: productsRouter, chain: buildChain() },
    {
      path: '/orders',
      router: ordersRouter,
      chain: buildChain({ throttle: { maxRequests: Math.max(1, Math.floor(config.throttle.maxRequests / 4)) } }),
    },
  ];

  const api = Router();
  for (const mount of mounts) {
    api.use(mount.path, ...mount.chain, mount.router);
  }
  app.use(API_PREFIX, api);

  app.use(notFound);
  app.use(errorHandler);
}

/** Lists mounted prefixes; printed on start-up to make the route table visible. */
export function describeRoutes(): string[] {
  return ['/health', '/users', '/products', '/orders'].map((path) => `${API_PREFIX}${path}`);
}
