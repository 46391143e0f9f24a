export type Environment = 'development' | 'test' | 'production';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface ServiceConfig {
  env: Environment;
  port: number;
  logLevel: LogLevel;
  /** Maximum accepted JSON body size, passed to express.json(). */
  bodyLimit: string;
  cors: {
    origins: string[];
    maxAgeSeconds: number;
  };
  auth: {
    apiKeys: string[];
    headerName: string;
  };
  throttle: {
    windowMs: number;
    maxRequests: number;
    /** Use X-Forwarded-For to identify clients when running behind a proxy. */
    trustProxy: boolean;
  };
  pagination: {
    defaultPageSize: number;
    maxPageSize: number;
  };
}

function str(name: string, fallback: string): string {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : value;
}

function int(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) {
    throw new Error(`${name} must be an integer, got "${value}"`);
  }
  return parsed;
}

function bool(name: string, fallback: boolean): boolean {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes'].includes(value.toLowerCase());
}

function list(name: string, fallback: string[]): string[] {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function environment(): Environment {
  const value = str('NODE_ENV', 'development');
  if (value === 'development' || value === 'test' || value === 'production') return value;
  throw new Error(`Unknown NODE_ENV "${value}"`);
}

export function loadConfig(): ServiceConfig {
  const env = environment();
  return {
    env,
    port: int('PORT', 3000),
    logLevel: str('LOG_LEVEL', env === 'production' ? 'info' : 'debug') as LogLevel,
    bodyLimit: str('BODY_LIMIT', '1mb'),
    cors: {
      origins: list('CORS_ORIGINS', ['http://localhost:5173']),
      maxAgeSeconds: int('CORS_MAX_AGE_SECONDS', 600),
    },
    auth: {
      apiKeys: list('API_KEYS', env === 'production' ? [] : ['dev-key-one']),
      headerName: 'x-api-key',
    },
    throttle: {
      windowMs: int('THROTTLE_WINDOW_MS', 60_000),
      maxRequests: int('THROTTLE_MAX_REQUESTS', 100),
      trustProxy: bool('THROTTLE_TRUST_PROXY', false),
    },
    pagination: {
      defaultPageSize: int('PAGE_SIZE_DEFAULT', 20),
      maxPageSize: int('PAGE_SIZE_MAX', 100),
    },
  };
}

export const config: ServiceConfig = loadConfig();
