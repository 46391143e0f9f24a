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

  /**
   * Whether a connection error should stop the client. A stream-level error (no message count,
   * e.g. EPIPE on a write to a process that just died) is not a protocol problem: keep going, so
   * that the process exit reaches `onCrash` and the server is restarted. Stopping here instead
   * would put the client in "stopping", and a stopping client never restarts its server. Repeated
   * errors on messages (a server writing garbage) do stop it, as the library's default does.
   */
  shouldShutDownOnError(count: number | undefined): boolean {
    return count !== undefined && count > 3;
  }

  /** Forgets past crashes (after the user restarts the server). */
  reset(): void {
    this.crashes = [];
  }
}
