import { config, LogLevel } from '../config';

const SEVERITY: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

type Meta = Record<string, unknown>;

function format(level: LogLevel, message: string, meta?: Meta): string {
  const time = new Date().toISOString();
  const suffix = meta && Object.keys(meta).length > 0 ? ' ' + JSON.stringify(meta, replaceErrors) : '';
  return `${time} ${level.toUpperCase().padEnd(5)} ${message}${suffix}`;
}

function replaceErrors(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    return { name: value.name, message: value.message };
  }
  return value;
}

function log(level: LogLevel, message: string, meta?: Meta): void {
  if (config.env === 'test') return;
  if (SEVERITY[level] < SEVERITY[config.logLevel]) return;
  const line = format(level, message, meta);
  if (SEVERITY[level] >= SEVERITY.warn) {
    console.error(line);
  } else {
    console.log(line);
  }
}

export const logger = {
  debug: (message: string, meta?: Meta) => log('debug', message, meta),
  info: (message: string, meta?: Meta) => log('info', message, meta),
  warn: (message: string, meta?: Meta) => log('warn', message, meta),
  error: (message: string, meta?: Meta) => log('error', message, meta),
};

export type Logger = typeof logger;
