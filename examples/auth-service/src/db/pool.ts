import { Pool, PoolClient, QueryResultRow } from 'pg';
import { config } from '../config';
import { logger } from '../utils/logger';

export const pool = new Pool({
  connectionString: config.database.url,
  max: config.database.poolSize,
  idleTimeoutMillis: config.database.idleTimeoutMs,
  statement_timeout: config.database.statementTimeoutMs,
});

pool.on('error', (err) => {
  logger.error('idle database client error', { err });
});

const SLOW_QUERY_MS = 250;

export async function query<T extends QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
  const started = Date.now();
  const result = await pool.query<T>(text, params);
  const elapsed = Date.now() - started;
  if (elapsed > SLOW_QUERY_MS) {
    logger.warn('slow query', { elapsedMs: elapsed, text });
  }
  return result.rows;
}

export async function queryOne<T extends QueryResultRow>(text: string, params: unknown[] = []): Promise<T | undefined> {
  const rows = await query<T>(text, params);
  return rows[0];
}

/**
 * Runs `work` inside a transaction. The transaction is rolled back if `work`
 * throws, and the client is always released back to the pool.
 */
export async function withTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackErr) => {
      logger.error('rollback failed', { err: rollbackErr });
    });
    throw err;
  } finally {
    client.release();
  }
}

export async function checkConnection(): Promise<{ ok: boolean; latencyMs: number }> {
  const started = Date.now();
  try {
    await pool.query('SELECT 1');
    return { ok: true, latencyMs: Date.now() - started };
  } catch (err) {
    logger.error('database health check failed', { err });
    return { ok: false, latencyMs: Date.now() - started };
  }
}

export async function closePool(): Promise<void> {
  await pool.end();
}
