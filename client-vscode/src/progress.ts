/**
 * The server's work-done progress in the UI. A retrieval has one progress place, the Context
 * view: its progress bar, and the task row, which shows the server's messages ("cycle 2/3:
 * evaluating 41 candidates"); progress the server reports on the request's token, or on a token
 * it creates while the retrieval runs, goes there. The view's Cancel action (shown while a
 * retrieval runs) cancels it. Indexing progress goes to the status bar. Cancelling sends
 * `$/cancelRequest` (through the request's token) and `window/workDoneProgress/cancel` for
 * server-created tokens.
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

/** One retrieval's progress. */
interface Session {
  tokens: Set<ProgressToken>;
  onMessage?: (message: string) => void;
}

let counter = 0;

export class ProgressRouter {
  private session: Session | undefined;
  private client: BaseLanguageClient | undefined;
  /** The retrievals under way, for the Cancel action. */
  private readonly running = new Set<vscode.CancellationTokenSource>();
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
        if (message) {
          session.onMessage?.(message);
        }
      } else if (route === 'index') {
        const counts = parseCounts(value.message);
        this.statusBar.indexing(counts?.done, counts?.total, message);
      } else if (route === 'window' && message) {
        windowProgress?.report({ message });
      }
    });
    return sub;
  }

  /**
   * Runs `work` under the view's progress bar, cancellable by `cancel()`. `work` gets the
   * cancellation token and a fresh workDoneToken for its request; `onMessage` gets the server's
   * progress messages.
   */
  async run<T>(work: (token: vscode.CancellationToken, workDoneToken: string) => Promise<T>, onMessage?: (message: string) => void): Promise<T> {
    const cts = new vscode.CancellationTokenSource();
    this.running.add(cts);
    const token = cts.token;
    try {
      return await vscode.window.withProgress({ location: { viewId: RESULTS_VIEW } }, async () => {
        const workDoneToken = `iterativeRetrieval/${Date.now()}/${++counter}`;
        const session: Session = { tokens: new Set(), onMessage };
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
      });
    } finally {
      this.running.delete(cts);
      cts.dispose();
    }
  }

  /** Cancels the retrievals under way (the view's Cancel action). */
  cancel(): void {
    for (const cts of this.running) {
      cts.cancel();
    }
  }

  dispose(): void {
    this.indexedEmitter.dispose();
  }
}
