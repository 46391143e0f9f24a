/**
 * What to do when the server process dies on its own: restart it and say so, up to a limit,
 * then stop and say why. Pure (no `vscode` import), so the decisions are unit-tested.
 */

import { EXTENSION_NAME } from './constants';

export interface CrashDecision {
  /** Start the server again. */
  restart: boolean;
  /** What the user is told (a warning after a restart, an error when giving up). */
  message: string;
}

/** The same limit as vscode-languageclient's default: 4 restarts within 3 minutes. */
export const MAX_RESTARTS = 4;
export const WINDOW_MS = 3 * 60 * 1000;

export class CrashPolicy {
  private crashes: number[] = [];

  constructor(
    private readonly maxRestarts = MAX_RESTARTS,
    private readonly windowMs = WINDOW_MS,
  ) {}

  /** Records a crash at `now` (ms) and decides. */
  onCrash(now: number = Date.now()): CrashDecision {
    this.crashes = this.crashes.filter((t) => now - t < this.windowMs);
    this.crashes.push(now);
    const n = this.crashes.length;
    const minutes = Math.round(this.windowMs / 60000);
    if (n > this.maxRestarts) {
      return {
        restart: false,
        message: `${EXTENSION_NAME}: the server crashed ${n} times in ${minutes} minutes and was not restarted again. See the output for the cause, then run "Iterative Retrieval: Restart Server".`,
      };
    }
    return {
      restart: true,
      message: `${EXTENSION_NAME}: the server stopped unexpectedly and was restarted (${n} of ${this.maxRestarts} restarts allowed in ${minutes} minutes). The index is reused; a retrieval that was running must be run again.`,
    };
  }

  /** Forgets past crashes (after the user restarts the server). */
  reset(): void {
    this.crashes = [];
  }
}
