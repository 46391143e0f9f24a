import { NextFunction, Request, Response } from 'express';
import { BadRequestError } from '../utils/errors';
import { hasPrefix } from '../utils/ids';

/** Rejects write requests whose body is not a JSON object. */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (!req.is('application/json')) {
    next(new BadRequestError('Content-Type must be application/json'));
    return;
  }
  if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
    next(new BadRequestError('Request body must be a JSON object'));
    return;
  }
  next();
}

/** Checks that `:param` looks like an id with the expected prefix (e.g. `usr_...`). */
export function validateId(prefix: string, param = 'id') {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const value = req.params[param];
    if (typeof value !== 'string' || !hasPrefix(value, prefix)) {
      next(new BadRequestError(`"${param}" must be an id starting with ${prefix}_`));
      return;
    }
    next();
  };
}

export function allowValues(param: string, allowed: readonly string[]) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const value = req.params[param];
    if (!allowed.includes(value)) {
      next(new BadRequestError(`"${param}" must be one of ${allowed.join(', ')}`));
      return;
    }
    next();
  };
}
