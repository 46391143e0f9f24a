import express, { Express } from 'express';
import { config } from './config';
import { setupRouter } from './router-setup';

export function createApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (config.throttle.trustProxy) {
    app.set('trust proxy', true);
  }
  setupRouter(app);
  return app;
}
