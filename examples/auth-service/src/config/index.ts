import { readBool, readEnum, readFloat, readInt, readString } from './env';

export type NodeEnv = 'development' | 'test' | 'production';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface AppConfig {
  env: NodeEnv;
  port: number;
  logLevel: LogLevel;
  database: {
    url: string;
    poolSize: number;
    idleTimeoutMs: number;
    statementTimeoutMs: number;
  };
  auth: {
    jwtSecret: string;
    jwtIssuer: string;
    accessTokenTtlSeconds: number;
    refreshTokenTtlSeconds: number;
    sessionIdleTtlSeconds: number;
    clockSkewSeconds: number;
    rotateRefreshTokens: boolean;
    maxSessionsPerUser: number;
  };
  mail: {
    from: string;
    smtpHost: string;
    smtpPort: number;
  };
  cache: {
    defaultTtlMs: number;
    maxEntries: number;
  };
  billing: {
    currency: string;
    taxRate: number;
    paymentTermsDays: number;
  };
}

const env = readEnum<NodeEnv>('NODE_ENV', ['development', 'test', 'production'], 'development');

export const config: AppConfig = {
  env,
  port: readInt('PORT', 4000),
  logLevel: readEnum<LogLevel>('LOG_LEVEL', ['debug', 'info', 'warn', 'error'], env === 'production' ? 'info' : 'debug'),
  database: {
    url: readString('DATABASE_URL', 'postgres://storefront:storefront@localhost:5432/storefront_dev'),
    poolSize: readInt('DATABASE_POOL_SIZE', 10),
    idleTimeoutMs: readInt('DATABASE_IDLE_TIMEOUT_MS', 30_000),
    statementTimeoutMs: readInt('DATABASE_STATEMENT_TIMEOUT_MS', 5_000),
  },
  auth: {
    jwtSecret: readString('JWT_SECRET', env === 'production' ? undefined : 'local-dev-secret'),
    jwtIssuer: readString('JWT_ISSUER', 'auth-service'),
    accessTokenTtlSeconds: readInt('ACCESS_TOKEN_TTL_SECONDS', 15 * 60),
    refreshTokenTtlSeconds: readInt('REFRESH_TOKEN_TTL_SECONDS', 14 * 24 * 60 * 60),
    sessionIdleTtlSeconds: readInt('SESSION_IDLE_TTL_SECONDS', 7 * 24 * 60 * 60),
    clockSkewSeconds: readInt('CLOCK_SKEW_SECONDS', 30),
    rotateRefreshTokens: readBool('ROTATE_REFRESH_TOKENS', true),
    maxSessionsPerUser: readInt('MAX_SESSIONS_PER_USER', 5),
  },
  mail: {
    from: readString('MAIL_FROM', 'no-reply@example.test'),
    smtpHost: readString('SMTP_HOST', 'localhost'),
    smtpPort: readInt('SMTP_PORT', 1025),
  },
  cache: {
    defaultTtlMs: readInt('CACHE_DEFAULT_TTL_MS', 60_000),
    maxEntries: readInt('CACHE_MAX_ENTRIES', 5_000),
  },
  billing: {
    currency: readString('BILLING_CURRENCY', 'EUR'),
    taxRate: readFloat('BILLING_TAX_RATE', 0.2),
    paymentTermsDays: readInt('BILLING_PAYMENT_TERMS_DAYS', 30),
  },
};

export const isProduction = config.env === 'production';
export const isTest = config.env === 'test';
