import { RequestHandler } from 'express';
import { Settings } from '../../settings';
import { apiKey } from './api-key';
import { bodySize } from './body-size';
import { throttle, ThrottleOptions } from './throttle';

export { apiKey } from './api-key';
export { bodySize } from './body-size';
export { throttle, Throttler, defaultKeyOf } from './throttle';
export type { ThrottleOptions, ThrottleDecision } from './throttle';

/** Every guard the gateway knows, by the name routes use to ask for it. */
export type GuardName = 'apiKey' | 'bodySize' | 'throttle';

export interface GuardRegistry {
  build(names: GuardName[]): RequestHandler[];
}

/**
 * Creates each guard once, from the settings, and hands out the same instance
 * to every route that asks for it (so a throttle's counters are shared by all
 * the routes it protects).
 */
export function createGuardRegistry(settings: Settings, overrides: Partial<ThrottleOptions> = {}): GuardRegistry {
  const made = new Map<GuardName, RequestHandler>();
  const factories: Record<GuardName, () => RequestHandler> = {
    apiKey: () => apiKey(settings.apiKeys),
    bodySize: () => bodySize(settings.maxBodyBytes),
    throttle: () => throttle({ ...settings.throttle, ...overrides }),
  };
  return {
    build(names: GuardName[]): RequestHandler[] {
      return names.map((name) => {
        let guard = made.get(name);
        if (!guard) {
          guard = factories[name]();
          made.set(name, guard);
        }
        return guard;
      });
    },
  };
}
