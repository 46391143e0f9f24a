/**
 * Small helpers for reading typed values out of process.env.
 * Every helper accepts a fallback; when no fallback is given the variable is required.
 */

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function raw(name: string): string | undefined {
  const value = process.env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

export function readString(name: string, fallback?: string): string {
  const value = raw(name);
  if (value !== undefined) return value;
  if (fallback !== undefined) return fallback;
  throw new ConfigError(`Missing required environment variable ${name}`);
}

export function readInt(name: string, fallback?: number): number {
  const value = raw(name);
  if (value === undefined) {
    if (fallback !== undefined) return fallback;
    throw new ConfigError(`Missing required environment variable ${name}`);
  }
  const parsed = Number.parseInt(value, 10);
  if (Number.isNaN(parsed)) {
    throw new ConfigError(`Environment variable ${name} must be an integer, got "${value}"`);
  }
  return parsed;
}

export function readFloat(name: string, fallback: number): number {
  const value = raw(name);
  if (value === undefined) return fallback;
  const parsed = Number.parseFloat(value);
  if (Number.isNaN(parsed)) {
    throw new ConfigError(`Environment variable ${name} must be a number, got "${value}"`);
  }
  return parsed;
}

export function readBool(name: string, fallback: boolean): boolean {
  const value = raw(name);
  if (value === undefined) return fallback;
  switch (value.toLowerCase()) {
    case '1':
    case 'true':
    case 'yes':
    case 'on':
      return true;
    case '0':
    case 'false':
    case 'no':
    case 'off':
      return false;
    default:
      throw new ConfigError(`Environment variable ${name} must be a boolean, got "${value}"`);
  }
}

export function readEnum<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
  const value = raw(name);
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(`Environment variable ${name} must be one of ${allowed.join(', ')}`);
}
