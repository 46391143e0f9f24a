/**
 * The server's work-done progress in the UI. A retrieval runs in a cancellable notification (and
 * the view's progress bar); progress the server reports on the request's token, or on a token it
 * creates while the retrieval runs, updates that notification. Indexing progress goes to the
 * status bar. Cancelling sends `$/cancelRequest` (through the request's token) and
 * `window/workDoneProgress/cancel` for server-created tokens.
 */

import * as vscode from 'vscode';
import {
  type BaseLanguageClient,
  type ClientCapabilities,
  type FeatureState,
  type ProgressToken,
  type StaticFeature,
  WorkDoneProgress,
  type WorkDoneProgressBegin,
  WorkDoneProgressCancelNotification,
  WorkDoneProgressCreateRequest,
  type WorkDoneProgressReport,
} from 'vscode-languageclient/node';
import { EXTENSION_NAME, RESULTS_VIEW } from './constants';
import { isIndexingProgress, parseCounts } from './progressText';
import type { IndexStatusBar } from './statusBar';

type Value = WorkDoneProgressBegin | WorkDoneProgressReport | { kind: 'end'; message?: string };

/** One retrieval's notification. */
interface Session {
  progress: vscode.Progress<{ message?: string; increment?: number }>;
  reported: number;
  tokens: Set<ProgressToken>;
  onMessage?: (message: string) => void;
}

let counter = 0;

export class ProgressRouter {
  private session: Session | undefined;
  private client: BaseLanguageClient | undefined;
  /** Fires when an indexing progress ends (so the status can be asked again). */
  private readonly indexedEmitter = new vscode.EventEmitter<void>();
  readonly onDidFinishIndexing = this.indexedEmitter.event;

  constructor(private readonly statusBar: IndexStatusBar) {}

  /** A client feature that takes over `window/workDoneProgress/create` from the default one. */
  feature(): (client: BaseLanguageClient) => StaticFeature {
    return (client) => ({
      getState: (): FeatureState => ({ kind: 'static' }),
      fillClientCapabilities: (caps: ClientCapabilities) => {
        caps.window = caps.window ?? {};
        caps.window.workDoneProgress = true;
      },
      initialize: () => {
        this.client = client;
        // Registered after the built-in progress feature, so this handler replaces it.
        client.onRequest(WorkDoneProgressCreateRequest.type, (params) => {
          this.follow(client, params.token, undefined);
        });
      },
      clear: () => undefined,
    });
  }

  /** Listens to one token's progress and routes it when it begins. */
  private follow(client: BaseLanguageClient, token: ProgressToken, fixed: Session | undefined): vscode.Disposable {
    let route: 'session' | 'index' | 'window' | undefined;
    let session: Session | undefined = fixed;
    let windowDone: (() => void) | undefined;
    let windowProgress: vscode.Progress<{ message?: string }> | undefined;
    const sub = client.onProgress(WorkDoneProgress.type, token, (value: Value) => {
      if (value.kind === 'begin') {
        if (!session && this.session && !isIndexingProgress(value.title, value.message)) {
          session = this.session;
        }
        if (session) {
          route = 'session';
          session.tokens.add(token);
        } else if (isIndexingProgress(value.title, value.message)) {
          route = 'index';
        } else {
          route = 'window';
          void vscode.window.withProgress(
            { location: vscode.ProgressLocation.Window, title: value.title ?? EXTENSION_NAME },
            (p) => {
              windowProgress = p;
              return new Promise<void>((resolve) => (windowDone = resolve));
            },
          );
        }
      }
      if (value.kind === 'end') {
        sub.dispose();
        session?.tokens.delete(token);
        windowDone?.();
        if (route === 'index') {
          this.indexedEmitter.fire();
        }
        return;
      }
      const message = value.kind === 'begin' ? [value.title, value.message].filter(Boolean).join(': ') : value.message;
      if (route === 'session' && session) {
        this.reportTo(session, message, value.percentage);
      } else if (route === 'index') {
        const counts = parseCounts(value.message);
        this.statusBar.indexing(counts?.done, counts?.total, message);
      } else if (route === 'window' && message) {
        windowProgress?.report({ message });
      }
    });
    return sub;
  }

  private reportTo(session: Session, message: string | undefined, percentage: number | undefined): void {
    let increment: number | undefined;
    if (typeof percentage === 'number') {
      const p = Math.max(0, Math.min(100, percentage));
      increment = Math.max(0, p - session.reported);
      session.reported += increment;
    }
    session.progress.report({ message, increment });
    if (message) {
      session.onMessage?.(message);
    }
  }

  /**
   * Runs `work` under a cancellable notification titled `title` and the view's progress bar.
   * `work` gets the cancellation token and a fresh workDoneToken for its request.
   */
  async run<T>(
    title: string,
    work: (token: vscode.CancellationToken, workDoneToken: string) => Promise<T>,
    onMessage?: (message: string) => void,
  ): Promise<T> {
    return vscode.window.withProgress({ location: { viewId: RESULTS_VIEW } }, () =>
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        async (progress, token) => {
          const workDoneToken = `iterativeRetrieval/${Date.now()}/${++counter}`;
          const session: Session = { progress, reported: 0, tokens: new Set(), onMessage };
          const previous = this.session;
          this.session = session;
          const client = this.client;
          const own = client ? this.follow(client, workDoneToken, session) : undefined;
          const cancelSub = token.onCancellationRequested(() => {
            for (const t of session.tokens) {
              if (t !== workDoneToken) {
                void this.client?.sendNotification(WorkDoneProgressCancelNotification.type, { token: t });
              }
            }
          });
          try {
            return await work(token, workDoneToken);
          } finally {
            cancelSub.dispose();
            own?.dispose();
            if (this.session === session) {
              this.session = previous;
            }
          }
        },
      ),
    );
  }

  dispose(): void {
    this.indexedEmitter.dispose();
  }
}
