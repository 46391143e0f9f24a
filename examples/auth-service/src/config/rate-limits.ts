/**
 * Per-route request budgets. These numbers are enforced by the API gateway in
 * front of the service; the service only exposes them on /health/limits so the
 * gateway configuration can be checked against what the code expects.
 */

export interface RouteBudget {
  /** Route prefix the budget applies to. */
  prefix: string;
  /** Maximum requests per window for one client. */
  maxRequests: number;
  /** Window size in seconds. */
  windowSeconds: number;
  /** Whether authenticated users get the higher budget. */
  authenticatedMultiplier: number;
}

export const routeBudgets: RouteBudget[] = [
  { prefix: '/account/login', maxRequests: 10, windowSeconds: 60, authenticatedMultiplier: 1 },
  { prefix: '/account/refresh', maxRequests: 30, windowSeconds: 60, authenticatedMultiplier: 1 },
  { prefix: '/products', maxRequests: 300, windowSeconds: 60, authenticatedMultiplier: 2 },
  { prefix: '/orders', maxRequests: 60, windowSeconds: 60, authenticatedMultiplier: 2 },
  { prefix: '/billing', maxRequests: 30, windowSeconds: 60, authenticatedMultiplier: 1 },
];

export const defaultBudget: RouteBudget = {
  prefix: '/',
  maxRequests: 120,
  windowSeconds: 60,
  authenticatedMultiplier: 2,
};

export function budgetFor(path: string): RouteBudget {
  let best: RouteBudget | undefined;
  for (const budget of routeBudgets) {
    if (path.startsWith(budget.prefix) && (!best || budget.prefix.length > best.prefix.length)) {
      best = budget;
    }
  }
  return best ?? defaultBudget;
}

export function effectiveMaxRequests(budget: RouteBudget, authenticated: boolean): number {
  return authenticated ? budget.maxRequests * budget.authenticatedMultiplier : budget.maxRequests;
}
