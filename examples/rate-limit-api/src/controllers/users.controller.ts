import { Request, Response } from 'express';
import { UserPatch } from '../models/user';
import { UserService, userService } from '../services/user.service';
import { orderService } from '../services/order.service';
import { BadRequestError } from '../utils/errors';
import { linkHeader, paginate, parsePageRequest } from '../utils/pagination';

const PATCHABLE: Array<keyof UserPatch> = ['name', 'status', 'marketingOptIn'];

export function createUsersController(users: UserService = userService) {
  return {
    list(req: Request, res: Response): void {
      const pageRequest = parsePageRequest(req.query);
      const page = paginate(users.list(), pageRequest);
      const link = linkHeader(`${req.baseUrl}${req.path}`, page.meta);
      if (link) res.setHeader('Link', link);
      res.json(page);
    },

    show(req: Request, res: Response): void {
      res.json({ data: users.get(req.params.id) });
    },

    create(req: Request, res: Response): void {
      const user = users.create(req.body ?? {});
      res.status(201).location(`${req.baseUrl}/${user.id}`).json({ data: user });
    },

    update(req: Request, res: Response): void {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const unknownFields = Object.keys(body).filter((key) => !PATCHABLE.includes(key as keyof UserPatch));
      if (unknownFields.length > 0) {
        throw new BadRequestError('Fields cannot be changed', unknownFields);
      }
      res.json({ data: users.update(req.params.id, body as UserPatch) });
    },

    remove(req: Request, res: Response): void {
      users.remove(req.params.id);
      res.status(204).end();
    },

    orders(req: Request, res: Response): void {
      users.get(req.params.id);
      const page = paginate(orderService.listForUser(req.params.id), parsePageRequest(req.query));
      res.json(page);
    },
  };
}

export const usersController = createUsersController();
