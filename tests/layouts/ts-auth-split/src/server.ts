import express from 'express';
import { loadConfig } from './config';
import { authRoutes } from './api/auth/routes';
import { invoiceRoutes } from './api/invoices/routes';
import { SessionManager } from './session/manager';
import { MemorySessionStore } from './session/store';
import { InvoiceService } from './billing/invoice-service';
import { HttpError } from './utils/errors';
import { log } from './utils/logger';

const config = loadConfig();
const sessions = new SessionManager(new MemorySessionStore(), {
  idleMs: config.sessionIdleMs,
  maxAgeMs: config.sessionMaxAgeMs,
});
const invoices = new InvoiceService();

const app = express();
app.use(express.json({ limit: '256kb' }));
app.use('/auth', authRoutes(config, sessions));
app.use('/invoices', invoiceRoutes(config, sessions, invoices));

app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
  if (err instanceof HttpError) {
    res.status(err.status).json({ error: err.code, message: err.message });
    return;
  }
  log.error('unhandled error', { err: String(err) });
  res.status(500).json({ error: 'INTERNAL' });
});

app.listen(config.port, () => log.info('ledger-api listening', { port: config.port }));
