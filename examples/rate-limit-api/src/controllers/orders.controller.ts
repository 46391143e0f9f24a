import { Request, Response } from 'express';
import { NewOrderLine } from '../models/order';
import { orderService } from '../services/order.service';
import { BadRequestError, ForbiddenError } from '../utils/errors';

type OrderAction = 'place' | 'cancel' | 'pay' | 'ship';

function readLines(body: unknown): NewOrderLine[] {
  const lines = (body as { lines?: unknown })?.lines;
  if (!Array.isArray(lines)) throw new BadRequestError('lines must be an array');
  return lines.map((line, index) => {
    const { productId, quantity } = (line ?? {}) as Partial<NewOrderLine>;
    if (typeof productId !== 'string' || typeof quantity !== 'number') {
      throw new BadRequestError(`lines[${index}] needs productId and quantity`);
    }
    return { productId, quantity };
  });
}

function callerId(res: Response): string {
  const userId = res.locals.userId as string | undefined;
  if (!userId) throw new BadRequestError('X-User-Id header is required for order operations');
  return userId;
}

export const ordersController = {
  list(_req: Request, res: Response): void {
    res.json({ data: orderService.listForUser(callerId(res)) });
  },

  show(req: Request, res: Response): void {
    const order = orderService.get(req.params.id);
    if (order.userId !== callerId(res)) throw new ForbiddenError('This order belongs to another user');
    res.json({ data: order });
  },

  create(req: Request, res: Response): void {
    const order = orderService.create(callerId(res), readLines(req.body));
    res.status(201).json({ data: order });
  },

  act(req: Request, res: Response): void {
    const action = req.params.action as OrderAction;
    const order = orderService.get(req.params.id);
    if (order.userId !== callerId(res)) throw new ForbiddenError('This order belongs to another user');
    switch (action) {
      case 'place':
        res.json({ data: orderService.place(order.id) });
        return;
      case 'cancel':
        res.json({ data: orderService.cancel(order.id) });
        return;
      case 'pay':
        res.json({ data: orderService.markPaid(order.id) });
        return;
      case 'ship':
        res.json({ data: orderService.ship(order.id) });
        return;
      default:
        throw new BadRequestError(`Unknown action ${String(action)}`);
    }
  },
};
