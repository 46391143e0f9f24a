export interface Settings {
  port: number;
  apiKeys: Set<string>;
  throttle: {
    windowMs: number;
    maxHits: number;
  };
  maxBodyBytes: number;
  defaultPageSize: number;
  maxPageSize: number;
}

function num(name: string, fallback: number): number {
  const value = process.env[name];
  if (!value) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) {
    throw new Error(`${name}: expected a non-negative number, got ${value}`);
  }
  return parsed;
}

export function readSettings(): Settings {
  return {
    port: num('GATEWAY_PORT', 3000),
    apiKeys: new Set((process.env.GATEWAY_API_KEYS ?? '').split(',').map((k) => k.trim()).filter(Boolean)),
    throttle: {
      windowMs: num('THROTTLE_WINDOW_MS', 60_000),
      maxHits: num('THROTTLE_MAX_HITS', 120),
    },
    maxBodyBytes: num('MAX_BODY_BYTES', 64 * 1024),
    defaultPageSize: 25,
    maxPageSize: 200,
  };
}
