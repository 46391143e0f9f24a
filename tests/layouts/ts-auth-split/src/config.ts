export interface AppConfig {
  port: number;
  signingKey: string;
  issuer: string;
  accessTtlSeconds: number;
  sessionIdleMs: number;
  sessionMaxAgeMs: number;
  invoicePageSize: number;
}

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number.parseInt(raw, 10);
  if (Number.isNaN(value) || value <= 0) {
    throw new Error(`${name} must be a positive integer, got "${raw}"`);
  }
  return value;
}

export function loadConfig(): AppConfig {
  const signingKey = process.env.LEDGER_SIGNING_KEY ?? '';
  if (signingKey.length < 32) {
    throw new Error('LEDGER_SIGNING_KEY must be at least 32 characters');
  }
  return {
    port: intFromEnv('PORT', 8080),
    signingKey,
    issuer: process.env.LEDGER_ISSUER ?? 'ledger-api',
    accessTtlSeconds: intFromEnv('ACCESS_TTL_SECONDS', 15 * 60),
    sessionIdleMs: intFromEnv('SESSION_IDLE_MS', 12 * 60 * 60 * 1000),
    sessionMaxAgeMs: intFromEnv('SESSION_MAX_AGE_MS', 30 * 24 * 60 * 60 * 1000),
    invoicePageSize: intFromEnv('INVOICE_PAGE_SIZE', 50),
  };
}
