import { Request, Response } from 'express';

const startedAt = Date.now();

export function healthHandler(_req: Request, res: Response): void {
  res.json({ status: 'ok', uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) });
}
