/** Wall clock in one place, so tests can freeze it. */
let frozenAt: number | null = null;

export function nowMs(): number {
  return frozenAt ?? Date.now();
}

/** Seconds since the epoch, the unit JWT `iat`/`exp` claims use. */
export function nowSeconds(): number {
  return Math.floor(nowMs() / 1000);
}

export function freezeClock(atMs: number): void {
  frozenAt = atMs;
}

export function unfreezeClock(): void {
  frozenAt = null;
}
