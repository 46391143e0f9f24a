import { Router } from 'express';
import { db } from '../db';
import { config } from '../config';

export const healthRouter = Router();

const bootedAt = new Date();

healthRouter.get('/', (_req, res) => {
  res.json({
    status: 'ok',
    env: config.env,
    bootedAt: bootedAt.toISOString(),
    uptimeSeconds: Math.round(process.uptime()),
  });
});

healthRouter.get('/ready', (_req, res) => {
  const counts = {
    users: db.users.count(),
    products: db.products.count(),
    orders: db.orders.count(),
  };
  const ready = counts.products > 0;
  res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'starting', counts });
});

healthRouter.get('/memory', (_req, res) => {
  const usage = process.memoryUsage();
  const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
  res.json({ rssMb: mb(usage.rss), heapUsedMb: mb(usage.heapUsed), heapTotalMb: mb(usage.heapTotal) });
});
