import { createApp } from './app';
import { config } from './config';
import { seed } from './db/seed';
import { describeRoutes } from './router-setup';
import { logger } from './utils/logger';

function main(): void {
  seed();
  const app = createApp();
  const server = app.listen(config.port, () => {
    logger.info(`listening on http://localhost:${config.port}`, { env: config.env });
    for (const route of describeRoutes()) logger.debug(`mounted ${route}`);
  });

  const stop = (signal: NodeJS.Signals) => {
    logger.info(`received ${signal}, closing server`);
    server.close((err) => {
      if (err) {
        logger.error('error while closing server', { err });
        process.exit(1);
      }
      process.exit(0);
    });
  };

  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main();
