import { pool, closePool } from './pool';
import { logger } from '../utils/logger';

interface Migration {
  id: number;
  name: string;
  up: string;
}

const migrations: Migration[] = [
  {
    id: 1,
    name: 'create_users',
    up: `
      CREATE TABLE IF NOT EXISTS users (
        id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
        email TEXT NOT NULL UNIQUE,
        display_name TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        role TEXT NOT NULL DEFAULT 'customer',
        email_verified BOOLEAN NOT NULL DEFAULT FALSE,
        email_verification_code TEXT,
        last_login TIMESTAMPTZ,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
  },
  {
    id: 2,
    name: 'create_products',
    up: `
      CREATE TABLE IF NOT EXISTS products (
        id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
        sku TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
        stock INTEGER NOT NULL DEFAULT 0,
        active BOOLEAN NOT NULL DEFAULT TRUE
      )`,
  },
  {
    id: 3,
    name: 'create_orders',
    up: `
      CREATE TABLE IF NOT EXISTS orders (
        id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id UUID NOT NULL REFERENCES users(id),
        status TEXT NOT NULL DEFAULT 'pending',
        items JSONB NOT NULL,
        subtotal_cents INTEGER NOT NULL,
        discount_cents INTEGER NOT NULL DEFAULT 0,
        coupon_code TEXT,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
  },
  {
    id: 4,
    name: 'create_invoices',
    up: `
      CREATE TABLE IF NOT EXISTS invoices (
        id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
        order_id UUID NOT NULL REFERENCES orders(id),
        number TEXT NOT NULL UNIQUE,
        total_cents INTEGER NOT NULL,
        tax_cents INTEGER NOT NULL,
        currency TEXT NOT NULL,
        issued_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        due_at TIMESTAMPTZ NOT NULL,
        paid_at TIMESTAMPTZ
      )`,
  },
  {
    id: 5,
    name: 'create_coupons',
    up: `
      CREATE TABLE IF NOT EXISTS coupons (
        code TEXT PRIMARY KEY,
        percent_off INTEGER NOT NULL CHECK (percent_off BETWEEN 1 AND 100),
        valid_from DATE NOT NULL,
        valid_until DATE NOT NULL,
        max_redemptions INTEGER,
        redemptions INTEGER NOT NULL DEFAULT 0
      )`,
  },
];

export async function migrate(): Promise<number> {
  await pool.query(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )`);
  const { rows } = await pool.query<{ id: number }>('SELECT id FROM schema_migrations');
  const applied = new Set(rows.map((row) => row.id));
  let count = 0;
  for (const migration of migrations) {
    if (applied.has(migration.id)) continue;
    logger.info('applying migration', { id: migration.id, name: migration.name });
    await pool.query(migration.up);
    await pool.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name]);
    count++;
  }
  return count;
}

if (require.main === module) {
  migrate()
    .then((count) => logger.info('migrations complete', { applied: count }))
    .catch((err) => {
      logger.error('migration failed', { err });
      process.exitCode = 1;
    })
    .finally(() => closePool());
}
