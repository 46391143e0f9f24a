import express, { Express } from 'express';
import { errorHandler, notFoundHandler } from './middleware/error-handler';
import { requestLogger } from './middleware/request-logger';
import { buildRouter } from './routes';

export function createApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 1);

  app.use(requestLogger);
  app.use(express.json({ limit: '100kb' }));
  app.use(buildRouter());

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
