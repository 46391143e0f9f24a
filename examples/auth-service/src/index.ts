import { createApp } from './app';
import { sessionManager } from './auth/session-manager';
import { config } from './config';
import { closePool } from './db/pool';
import { logger } from './utils/logger';

const SESSION_PRUNE_INTERVAL_MS = 10 * 60 * 1000;

const app = createApp();
const server = app.listen(config.port, () => {
  logger.info('server listening', { port: config.port, env: config.env });
});

const pruneTimer = setInterval(() => {
  sessionManager
    .pruneExpired()
    .then((removed) => {
      if (removed > 0) logger.info('pruned sessions', { removed });
    })
    .catch((err) => logger.error('session pruning failed', { err }));
}, SESSION_PRUNE_INTERVAL_MS);
pruneTimer.unref();

function shutdown(signal: string): void {
  logger.info('shutting down', { signal });
  clearInterval(pruneTimer);
  server.close(() => {
    closePool()
      .catch((err) => logger.error('error closing database pool', { err }))
      .finally(() => process.exit(0));
  });
  setTimeout(() => process.exit(1), 10_000).unref();
}

process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
