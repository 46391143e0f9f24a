import express from 'express';
import { readSettings } from './settings';
import { mountApi } from './http/mount';
import { Catalog } from './domain/catalog';
import { FxRates } from './domain/fx-rates';
import { log } from './support/log';

async function main(): Promise<void> {
  const settings = readSettings();
  const catalog = await Catalog.load(process.env.CATALOG_FILE ?? 'catalog.json');
  const fx = new FxRates(process.env.FX_SOURCE_URL ?? 'https://fx.internal/daily.json');
  await fx.refresh();
  setInterval(() => fx.refresh().catch((err) => log.warn('fx refresh failed', { err: String(err) })), 3_600_000).unref();

  const app = express();
  app.disable('x-powered-by');
  mountApi(app, { settings, catalog, fx });
  app.listen(settings.port, () => log.info('catalog-gateway up', { port: settings.port }));
}

main().catch((err) => {
  log.error('failed to start', { err: String(err) });
  process.exit(1);
});
