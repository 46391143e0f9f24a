/**
 * The language server's life: start it with the right command, restart it (one debounced path
 * for the Restart command, settings changes and interpreter changes), say what to do when it is
 * missing, and send it commands.
 */

import * as vscode from 'vscode';
import {
  type BaseLanguageClient,
  CancellationToken as LspCancellationToken,
  CloseAction,
  ErrorAction,
  RevealOutputChannelOn,
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  type LanguageClientOptions,
  LSPErrorCodes,
  ResponseError,
  type ServerOptions,
  State,
  type StaticFeature,
} from 'vscode-languageclient/node';
import { CLIENT_ID, CONFIG_SECTION, EXTENSION_NAME, SERVER_ARGS } from './constants';
import { CrashPolicy } from './crashPolicy';
import { isLaunch, type NoServer, noServerMessage, type ServerLaunch } from './launch';
import { resolveLaunch } from './python';
import { toServerConfig } from './serverConfig';
import { getSettings, openSettings } from './settings';

export type ServerState = 'stopped' | 'starting' | 'running' | 'missing' | 'failed' | 'restarting';

/** Raised when a request is cancelled by the user (or the server answers RequestCancelled). */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/** Raised when there is no server to ask; the user has already been told why. */
export class ServerUnavailable extends Error {}

const RESTART_DEBOUNCE_MS = 300;

export class ServerManager implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<LanguageClient | undefined> | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly restartWaiters: (() => void)[] = [];
  private readonly stateEmitter = new vscode.EventEmitter<{ state: ServerState; detail?: string }>();
  readonly onDidChangeState = this.stateEmitter.event;
  private _state: ServerState = 'stopped';
  /** Restarts after the server process died on its own (counted, limited, announced). */
  private readonly crashes = new CrashPolicy();
  private lastLaunch: ServerLaunch | undefined;

  /** Features added to every new client (progress routing). */
  private featureFactory: (client: BaseLanguageClient) => StaticFeature[] = () => [];

  constructor(
    readonly output: vscode.LogOutputChannel,
    private readonly extensionPath: string,
  ) {}

  setFeatureFactory(factory: (client: BaseLanguageClient) => StaticFeature[]): void {
    this.featureFactory = factory;
  }

  get state(): ServerState {
    return this._state;
  }

  private setState(state: ServerState, detail?: string): void {
    this._state = state;
    this.stateEmitter.fire({ state, detail });
  }

  /** The running client, starting the server first when needed; undefined when it cannot start. */
  async ensureStarted(): Promise<LanguageClient | undefined> {
    if (this.client && this.client.state === State.Running) {
      return this.client;
    }
    if (!this.starting) {
      this.starting = this.start().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  private async start(): Promise<LanguageClient | undefined> {
    await this.stop();
    this.setState('starting');
    const settings = getSettings();
    const folder = vscode.workspace.workspaceFolders?.[0];
    const found = await resolveLaunch(settings, SERVER_ARGS, this.extensionPath, folder?.uri);
    if (!isLaunch(found)) {
      const text = noServerMessage(EXTENSION_NAME, CONFIG_SECTION, found);
      this.output.error(text);
      this.setState('missing', text);
      void this.tellNoServer(found, text);
      return undefined;
    }
    const launch = found;
    this.lastLaunch = launch;
    this.output.info(`Starting the server (${describeLaunch(launch)}): ${[launch.command, ...launch.args].join(' ')}`);
    const serverOptions: ServerOptions = {
      command: launch.command,
      args: launch.args,
      // The server also sends its log as window/logMessage: keep stderr for warnings and errors.
      options: { cwd: folder?.uri.fsPath, env: { ITERATIVE_RETRIEVAL_LOG: 'WARNING', ...process.env, ...launch.env, PYTHONUNBUFFERED: '1' } },
    };
    let client: LanguageClient | undefined;
    const clientOptions: LanguageClientOptions = {
      // Every file document, so that the server sees unsaved edits anywhere in the workspace.
      documentSelector: [{ scheme: 'file' }],
      outputChannel: this.output,
      traceOutputChannel: this.output,
      // The library's own errors (a failed write to a dead process, ...) go to the output only:
      // what the user needs to know (restarted, failed, a request's error) this extension says.
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      // The server process died on its own: restart it (up to a limit) and tell the user.
      errorHandler: {
        error: (error, _message, count) => {
          if (this.crashes.shouldShutDownOnError(count)) {
            return { action: ErrorAction.Shutdown };
          }
          // Logged, not shown: if the process died, `closed` tells the user once.
          this.output.warn(`connection to the server: ${error.message}`);
          return { action: ErrorAction.Continue, handled: true };
        },
        closed: () => {
          const decision = this.crashes.onCrash();
          this.output.warn(decision.message);
          if (decision.restart) {
            this.setState('restarting', decision.message);
            void vscode.window.showWarningMessage(decision.message, 'Show Output').then((c) => c && this.output.show());
            return { action: CloseAction.Restart, handled: true };
          }
          this.setState('failed', decision.message);
          void vscode.window.showErrorMessage(decision.message, 'Restart Server', 'Show Output').then((c) => {
            if (c === 'Restart Server') {
              void this.restart('after crashes, on request');
            } else if (c === 'Show Output') {
              this.output.show();
            }
          });
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
      initializationOptions: toServerConfig(settings),
      middleware: {
        workspace: {
          // The server asks for section "iterativeRetrieval": answer with its view of it.
          configuration: async (params, token, next) => {
            const answers = await next(params, token);
            if (!Array.isArray(answers)) {
              return answers;
            }
            return answers.map((a: unknown, i): unknown => {
              const item = params.items[i];
              return item?.section === CONFIG_SECTION ? toServerConfig(getSettings(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined)) : a;
            });
          },
          // When the server registers for configuration changes, send its view of the section
          // rather than the raw settings (which hold client-only keys and "auto" for includeTests).
          didChangeConfiguration: async (sections, next) => {
            if (!client || (sections && !sections.some((s) => s === CONFIG_SECTION || s.startsWith(`${CONFIG_SECTION}.`)))) {
              return next(sections);
            }
            await client.sendNotification(DidChangeConfigurationNotification.type, {
              settings: { [CONFIG_SECTION]: toServerConfig(getSettings()) },
            });
          },
        },
      },
    };
    client = new LanguageClient(CLIENT_ID, EXTENSION_NAME, serverOptions, clientOptions);
    for (const f of this.featureFactory(client)) {
      client.registerFeature(f);
    }
    client.onDidChangeState((e) => {
      if (this.client !== client) {
        return;
      }
      // vscode-languageclient restarts a crashed server a few times by itself.
      if (e.newState === State.Stopped && this._state === 'running') {
        this.setState('failed', 'the server stopped');
      } else if (e.newState === State.Running && (this._state === 'failed' || this._state === 'restarting')) {
        this.setState('running');
      }
    });
    try {
      await client.start();
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      this.output.error(`The server did not start: ${msg}`);
      this.setState('failed', msg);
      void this.tellFailed(launch, msg);
      try {
        await client.dispose();
      } catch {
        // already dead
      }
      return undefined;
    }
    this.client = client;
    this.setState('running');
    return client;
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c) {
      try {
        await c.dispose(2000);
      } catch (err) {
        this.output.warn(`Stopping the server: ${String(err)}`);
      }
    }
    this.setState('stopped');
  }

  /** The one restart path: coalesces bursts (settings + interpreter change) into one restart. */
  restart(reason: string): Promise<void> {
    this.output.info(`Restarting the server: ${reason}`);
    this.crashes.reset();
    if (this.restartTimer) {
      clearTimeout(this.restartTimer);
    }
    return new Promise((resolve) => {
      this.restartWaiters.push(resolve);
      this.restartTimer = setTimeout(() => {
        this.restartTimer = undefined;
        const waiters = this.restartWaiters.splice(0);
        void this.stop()
          .then(() => this.ensureStarted())
          .finally(() => waiters.forEach((w) => w()));
      }, RESTART_DEBOUNCE_MS);
    });
  }

  /** Tells a running server that settings changed (it pulls them with workspace/configuration). */
  notifyConfigurationChanged(): void {
    const c = this.client;
    if (c && c.state === State.Running) {
      void c.sendNotification(DidChangeConfigurationNotification.type, {
        settings: { [CONFIG_SECTION]: toServerConfig(getSettings()) },
      });
    }
  }

  /**
   * Sends `workspace/executeCommand` with one object argument. Cancelling `token` sends
   * `$/cancelRequest` and rejects at once with Cancelled (a late answer is dropped).
   */
  async execute<T>(command: string, arg: object | undefined, token?: vscode.CancellationToken, workDoneToken?: string): Promise<T> {
    const client = await this.ensureStarted();
    if (!client) {
      throw new ServerUnavailable(`The ${EXTENSION_NAME} server is not running.`);
    }
    if (token?.isCancellationRequested) {
      throw new Cancelled();
    }
    const params = { command, arguments: arg === undefined ? [] : [arg], ...(workDoneToken ? { workDoneToken } : {}) };
    const request = client.sendRequest(ExecuteCommandRequest.type, params, token ?? LspCancellationToken.None);
    let sub: vscode.Disposable | undefined;
    const cancelled = new Promise<never>((_, reject) => {
      sub = token?.onCancellationRequested(() => reject(new Cancelled()));
    });
    try {
      return (await Promise.race([request, cancelled])) as T;
    } catch (err) {
      if (err instanceof Cancelled || token?.isCancellationRequested) {
        throw new Cancelled();
      }
      if (err instanceof ResponseError && (err.code === LSPErrorCodes.RequestCancelled || err.code === LSPErrorCodes.ServerCancelled)) {
        throw new Cancelled();
      }
      if (err instanceof vscode.CancellationError) {
        throw new Cancelled();
      }
      throw err;
    } finally {
      sub?.dispose();
      request.catch(() => undefined);
    }
  }

  /** The one message when no Python can run the server: what was tried, what to install. */
  private async tellNoServer(none: NoServer, text: string): Promise<void> {
    const actions = none.reason === 'no-python' ? ['Get Python', 'Open Settings', 'Show Output'] : ['Open Settings', 'Show Output'];
    const choice = await vscode.window.showErrorMessage(text, ...actions);
    if (choice === 'Get Python') {
      await vscode.env.openExternal(vscode.Uri.parse('https://www.python.org/downloads/'));
    } else if (choice === 'Open Settings') {
      await openSettings('server');
    } else if (choice === 'Show Output') {
      this.output.show();
    }
  }

  private async tellFailed(launch: ServerLaunch, msg: string): Promise<void> {
    const choice = await vscode.window.showErrorMessage(
      `${EXTENSION_NAME}: the server did not start (${[launch.command, ...launch.args].join(' ')}): ${msg}`,
      'Open Settings',
      'Show Output',
    );
    if (choice === 'Open Settings') {
      await openSettings('server');
    } else if (choice === 'Show Output') {
      this.output.show();
    }
  }

  /** The command line last used, for Show Index Status. */
  get launch(): ServerLaunch | undefined {
    return this.lastLaunch;
  }

  dispose(): void {
    if (this.restartTimer) {
      clearTimeout(this.restartTimer);
    }
    void this.stop();
    this.stateEmitter.dispose();
  }
}

/** Where the command came from and which copy of the server it runs, for the log. */
export function describeLaunch(l: ServerLaunch): string {
  if (l.server === 'command') {
    return 'server.command';
  }
  const what = l.server === 'bundled' ? `the bundled server${l.version ? ` ${l.version}` : ''}` : 'its installed package';
  return `${l.source}, ${what}`;
}
