import { NextFunction, Request, Response } from 'express';
import { ValidationError } from '../utils/errors';

export type FieldType = 'string' | 'number' | 'boolean' | 'email' | 'uuid' | 'array';

export interface FieldRule {
  type: FieldType;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
}

export type Schema = Record<string, FieldRule>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkField(name: string, value: unknown, rule: FieldRule): string | undefined {
  if (value === undefined || value === null || value === '') {
    return rule.required ? `${name} is required` : undefined;
  }
  switch (rule.type) {
    case 'string':
    case 'email':
    case 'uuid': {
      if (typeof value !== 'string') return `${name} must be a string`;
      if (rule.type === 'email' && !EMAIL.test(value)) return `${name} must be an email address`;
      if (rule.type === 'uuid' && !UUID.test(value)) return `${name} must be a UUID`;
      if (rule.minLength !== undefined && value.length < rule.minLength) return `${name} is too short`;
      if (rule.maxLength !== undefined && value.length > rule.maxLength) return `${name} is too long`;
      return undefined;
    }
    case 'number': {
      if (typeof value !== 'number' || Number.isNaN(value)) return `${name} must be a number`;
      if (rule.min !== undefined && value < rule.min) return `${name} must be >= ${rule.min}`;
      if (rule.max !== undefined && value > rule.max) return `${name} must be <= ${rule.max}`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${name} must be a boolean`;
    case 'array':
      return Array.isArray(value) ? undefined : `${name} must be an array`;
  }
}

export function validateBody(schema: Schema) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const problems: string[] = [];
    for (const [name, rule] of Object.entries(schema)) {
      const problem = checkField(name, body[name], rule);
      if (problem) problems.push(problem);
    }
    if (problems.length > 0) {
      next(new ValidationError('request body is invalid', problems));
      return;
    }
    next();
  };
}

export function validateParamUuid(param: string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const value = req.params[param];
    if (!UUID.test(value ?? '')) {
      next(new ValidationError(`${param} must be a UUID`));
      return;
    }
    next();
  };
}
