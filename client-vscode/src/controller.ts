/**
 * What the commands do: run a retrieval for a task (with progress and cancellation), keep the
 * last result and the files the user pinned and excluded in this workspace, and act on result
 * rows (open, copy, pin, exclude).
 */

import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { ContextKeys, EXCLUDED_KEY, EXTENSION_NAME, PINNED_KEY, RECENT_TASKS_KEY, RESULTS_VIEW, ServerCommands } from './constants';
import { currentEditorHints, inWorkspace } from './editorState';
import { added, removed, steeringArgs } from './hints';
import { resolveResultPath } from './paths';
import type { ProgressRouter } from './progress';
import { type IndexStatus, isRetrievalResult, normalizeResult, parseStatus, type RetrieveArgs, type RetrievalResult } from './protocol';
import type { ExplanationJson, RenderAnswer } from './contract';
import { renderRegion, retrieveLogLine } from './render';
import type { ResultsProvider } from './resultsView';
import { Cancelled, type ServerManager, ServerUnavailable } from './server';
import { getSettings } from './settings';
import type { IndexStatusBar } from './statusBar';
import { rememberTask } from './tasks';
import type { Node } from './treeModel';

/** The formats the server renders a context in (contract.py FORMATS). */
export type ContextFormat = RenderAnswer['format'];

const FORMAT_LABELS: Record<ContextFormat, string> = { markdown: 'Markdown', xml: 'XML documents', json: 'JSON' };
const FORMAT_HINTS: Record<ContextFormat, string> = {
  markdown: 'a ranked table, then fenced code regions: for a chat',
  xml: 'one <document> per file, its regions in <source>: for an agent or a long prompt',
  json: 'the result object (docs/json-schema.md): for a program',
};

export interface RunOptions {
  /** Extra globs to exclude (on top of the settings). */
  exclude?: string[];
  /** Files pinned for this run only (URIs), on top of the workspace's pins. */
  pinned?: string[];
  /** The previous run's learned terms, when this task follows it up. */
  followUp?: string[];
  /** Files the caller (the language-model tool's agent) has read already. */
  seen?: string[];
  maxCycles?: number;
  include?: string[];
  /** Show the result in the sidebar (false for chat and tool calls). */
  showInView?: boolean;
  /** Cancellation from the caller (chat, tool), instead of the notification. */
  token?: vscode.CancellationToken;
}

export class Controller {
  private lastTask: string | undefined;
  private runId = 0;
  /** The warnings already shown as a notification: each once a session (the sidebar shows them every run). */
  private readonly warned = new Set<string>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly server: ServerManager,
    private readonly router: ProgressRouter,
    private readonly view: ResultsProvider,
    private readonly statusBar: IndexStatusBar,
  ) {}

  get recentTasks(): string[] {
    return this.context.workspaceState.get<string[]>(RECENT_TASKS_KEY, []);
  }

  private async remember(task: string): Promise<void> {
    await this.context.workspaceState.update(RECENT_TASKS_KEY, rememberTask(this.recentTasks, task, getSettings().historySize));
  }

  get result(): RetrievalResult | undefined {
    const s = this.view.state;
    return s.kind === 'done' ? s.result : undefined;
  }

  get task(): string | undefined {
    return this.lastTask;
  }

  /** The files pinned in this workspace (URIs): sent as `pinned` with every retrieve. */
  get pinned(): string[] {
    return this.context.workspaceState.get<string[]>(PINNED_KEY, []);
  }

  /** The files excluded in this workspace (URIs): sent as `excluded` with every retrieve. */
  get excluded(): string[] {
    return this.context.workspaceState.get<string[]>(EXCLUDED_KEY, []);
  }

  private async keep(pinned: string[], excluded: string[]): Promise<void> {
    await this.context.workspaceState.update(PINNED_KEY, pinned);
    await this.context.workspaceState.update(EXCLUDED_KEY, excluded);
    this.updatePinContext();
  }

  /** The context keys the pin menus read (call once at start-up, and after each change). */
  updatePinContext(): void {
    const paths = this.pinned.map((u) => vscode.Uri.parse(u).fsPath); // resourcePath is a file's fsPath
    void vscode.commands.executeCommand('setContext', ContextKeys.pinnedPaths, paths);
    void vscode.commands.executeCommand('setContext', ContextKeys.hasPinsOrExcludes, paths.length + this.excluded.length > 0);
  }

  /** A list of URIs as workspace-relative paths, for the view. */
  private relative(uris: string[]): string[] {
    return uris.map((u) => vscode.workspace.asRelativePath(vscode.Uri.parse(u), false));
  }

  /** The retrieve arguments for a task, from the settings and the run's options. */
  private args(task: string, opts: RunOptions): RetrieveArgs {
    const s = getSettings();
    // The server adds `exclude` to the configured excludes and lets `include` replace the
    // configured includes; cycles and budget go along so a run never depends on config timing.
    // The editor's state, the workspace's pins and excludes go with every run (docs/lsp.md).
    return {
      task,
      maxCycles: opts.maxCycles ?? s.maxCycles,
      budget: s.budget,
      ...(opts.exclude?.length ? { exclude: opts.exclude } : {}),
      ...(opts.include?.length ? { include: opts.include } : {}),
      ...steeringArgs({ pinned: this.pinned, excluded: this.excluded, extraPins: opts.pinned, followUp: opts.followUp, seen: opts.seen }),
      ...currentEditorHints(),
    };
  }

  /** Sends one retrieve request and checks the answer's shape. */
  async retrieve(task: string, opts: RunOptions, token?: vscode.CancellationToken, workDoneToken?: string): Promise<RetrievalResult> {
    const args = this.args(task, opts);
    this.server.output.info(retrieveLogLine(args));
    const answer = await this.server.execute<unknown>(ServerCommands.retrieve, args, token, workDoneToken);
    if (!isRetrievalResult(answer)) {
      throw new Error(`unexpected answer from the server: ${JSON.stringify(answer)?.slice(0, 200)}`);
    }
    return normalizeResult(answer);
  }

  /**
   * Runs a retrieval for `task` in the sidebar, its progress in the view (cancelled by the view's
   * Cancel action). Returns the result, or undefined when cancelled or failed (the user has been
   * told).
   */
  async run(task: string, opts: RunOptions = {}): Promise<RetrievalResult | undefined> {
    const id = ++this.runId;
    const previous = this.view.state;
    this.lastTask = task;
    void this.remember(task);
    this.view.setState({ kind: 'running', task });
    void vscode.commands.executeCommand(`${RESULTS_VIEW}.focus`);
    if (!(await this.server.ensureStarted())) {
      this.view.setState({ kind: 'error', task, message: 'The server is not running: see the message or the output channel.' });
      return undefined;
    }
    try {
      const result = await this.router.run(
        (token, workDoneToken) => this.retrieve(task, opts, token, workDoneToken),
        (message) => {
          if (id === this.runId) {
            this.view.setState({ kind: 'running', task, message });
          }
        },
      );
      if (id === this.runId) {
        this.view.setState({ kind: 'done', result, excluded: this.relative(this.excluded), pinned: this.relative(this.pinned) });
        for (const w of result.warnings ?? []) {  // a setting to fix: the sidebar's row says it every run
          if (!this.warned.has(w)) {
            this.warned.add(w);
            this.server.output.warn(w);
            void vscode.window.showWarningMessage(`${EXTENSION_NAME}: ${w}`);
          }
        }
      }
      return result;
    } catch (err) {
      if (id !== this.runId) {
        return undefined;
      }
      if (err instanceof Cancelled) {
        this.view.setState(previous.kind === 'running' ? { kind: 'empty' } : previous);
        void vscode.window.setStatusBarMessage(`${EXTENSION_NAME}: retrieval cancelled`, 3000);
        return undefined;
      }
      const message = err instanceof Error ? err.message : String(err);
      this.view.setState({ kind: 'error', task, message });
      if (!(err instanceof ServerUnavailable)) {
        this.server.output.error(`retrieve failed: ${message}`);
        void vscode.window.showErrorMessage(`${EXTENSION_NAME}: retrieval failed: ${message}`, 'Show Output').then((c) => {
          if (c) {
            this.server.output.show();
          }
        });
      }
      return undefined;
    }
  }

  rerun(): Promise<RetrievalResult | undefined> | undefined {
    return this.lastTask ? this.run(this.lastTask) : undefined;
  }

  /** Cancels the retrieval under way; the view goes back to the result before it. */
  cancel(): void {
    this.router.cancel();
  }

  clear(): void {
    this.runId++;
    this.lastTask = undefined;
    this.view.setState({ kind: 'empty' });
  }

  /** The workspace file a row, an Explorer item or (with neither) the active editor stands for. */
  private fileOf(target: vscode.Uri | Node | undefined): vscode.Uri | undefined {
    const uri = target instanceof vscode.Uri ? target : target?.file ? this.uriOf(target.file.path, target.file.root, target.file.uri) : target === undefined ? vscode.window.activeTextEditor?.document.uri : undefined;
    if (!uri || !inWorkspace(uri)) {
      void vscode.window.showInformationMessage(`${EXTENSION_NAME}: pick a file of the workspace folders.`);
      return undefined;
    }
    return uri;
  }

  /** Reruns the last task after a change of pins or excludes; without one, says what changed. */
  private async afterSteering(message: string): Promise<void> {
    if (this.lastTask) {
      await this.run(this.lastTask);
    } else {
      void vscode.window.setStatusBarMessage(`${EXTENSION_NAME}: ${message}`, 4000);
    }
  }

  async excludeAndRerun(target: vscode.Uri | Node | undefined): Promise<void> {
    const uri = this.fileOf(target);
    if (uri) {
      const key = uri.toString();
      await this.keep(removed(this.pinned, key), added(this.excluded, key));
      await this.afterSteering(`${vscode.workspace.asRelativePath(uri, false)} is excluded from every retrieval in this workspace`);
    }
  }

  /** Pins a file: it is handed out by every retrieval in this workspace, marked pinned. */
  async pinAndRerun(target: vscode.Uri | Node | undefined): Promise<void> {
    const uri = this.fileOf(target);
    if (uri) {
      const key = uri.toString();
      await this.keep(added(this.pinned, key), removed(this.excluded, key));
      await this.afterSteering(`${vscode.workspace.asRelativePath(uri, false)} is pinned: it is in every retrieval in this workspace`);
    }
  }

  async unpin(target: vscode.Uri | Node | undefined): Promise<void> {
    const uri = this.fileOf(target);
    if (uri) {
      await this.keep(removed(this.pinned, uri.toString()), this.excluded);
      await this.afterSteering(`${vscode.workspace.asRelativePath(uri, false)} is no longer pinned`);
    }
  }

  /** Forgets every pin and exclude of this workspace. */
  async forgetPins(): Promise<void> {
    await this.keep([], []);
    await this.afterSteering('no file is pinned or excluded any more');
  }

  /** A result rendered by the server (`renderContext`, render.py): the one renderer. */
  async render(result: RetrievalResult, format: ContextFormat = 'markdown'): Promise<string> {
    const answer = await this.server.execute<RenderAnswer>(ServerCommands.renderContext, { result, format });
    if (!answer || typeof answer.text !== 'string') {
      throw new Error('the server answered renderContext without text');
    }
    return answer.text;
  }

  /** The context as Markdown for a chat (the server's rendering). */
  async markdown(result: RetrievalResult): Promise<string> {
    return this.render(result, 'markdown');
  }

  async copyContext(format: ContextFormat = 'markdown'): Promise<void> {
    const result = this.result;
    if (!result) {
      void vscode.window.showInformationMessage(`${EXTENSION_NAME}: no context yet. Run "Find Context for Task…" first.`);
      return;
    }
    let text: string;
    try {
      text = await this.render(result, format);
    } catch (err) {
      void vscode.window.showErrorMessage(`${EXTENSION_NAME}: the server could not render the context: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    await vscode.env.clipboard.writeText(text);
    void vscode.window.setStatusBarMessage(`${EXTENSION_NAME}: context copied as ${FORMAT_LABELS[format]} (${result.files.length} files)`, 3000);
  }

  /** Asks which format, then copies the context in it. */
  async copyContextAs(): Promise<void> {
    const pick = await vscode.window.showQuickPick(
      (Object.keys(FORMAT_LABELS) as ContextFormat[]).map((format) => ({ label: FORMAT_LABELS[format], description: FORMAT_HINTS[format], format })),
      { title: `${EXTENSION_NAME}: Copy Context As…`, placeHolder: 'The format of the copied context' },
    );
    if (pick) {
      await this.copyContext(pick.format);
    }
  }

  /**
   * How relevant one file is to the last task (the server's `explain`, Engine.explain): for the
   * editor's file, or the file of a row.
   */
  async explain(target: vscode.Uri | Node | undefined): Promise<void> {
    const uri = target instanceof vscode.Uri ? target : target?.file ? this.uriOf(target.file.path, target.file.root, target.file.uri) : vscode.window.activeTextEditor?.document.uri;
    const task = this.lastTask;
    if (!uri || uri.scheme !== 'file') {
      void vscode.window.showInformationMessage(`${EXTENSION_NAME}: open a file of the workspace first.`);
      return;
    }
    if (!task) {
      void vscode.window.showInformationMessage(`${EXTENSION_NAME}: no task yet. Run "Find Context for Task…" first.`);
      return;
    }
    try {
      const e = await vscode.window.withProgress(
        { location: { viewId: RESULTS_VIEW }, title: 'Explaining' },
        () => this.server.execute<ExplanationJson>(ServerCommands.explain, { path: uri.fsPath, task }),
      );
      const where = e.rank === null ? e.band : `${e.relevance.toFixed(2)} (${e.band}), rank ${e.rank} of ${e.of}`;
      this.server.output.info(`explain ${e.path}: ${JSON.stringify(e)}`);
      void vscode.window.showInformationMessage(`${EXTENSION_NAME}: ${e.path} — ${where}: ${e.reason}`);
    } catch (err) {
      if (!(err instanceof Cancelled)) {
        void vscode.window.showErrorMessage(`${EXTENSION_NAME}: explain failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /** The absolute file of a result row. */
  uriOf(path: string, root?: string, uri?: string): vscode.Uri | undefined {
    if (uri?.startsWith('file:')) {
      return vscode.Uri.parse(uri);
    }
    const roots = this.result?.roots.length ? this.result.roots : (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const abs = resolveResultPath(path, root, roots, (p) => fs.existsSync(p));
    return abs ? vscode.Uri.file(abs) : undefined;
  }

  /** Opens a row's file; for a region, with its lines selected. */
  async open(node: Node | undefined): Promise<void> {
    const target = node?.target;
    if (!target) {
      return;
    }
    const uri = this.uriOf(target.path, target.root, target.uri);
    if (!uri) {
      return;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    let selection: vscode.Range | undefined;
    if (target.startLine !== undefined) {
      const last = Math.max(0, doc.lineCount - 1);
      const start = Math.min(last, Math.max(0, target.startLine - 1));
      const end = Math.min(last, Math.max(start, (target.endLine ?? target.startLine) - 1));
      selection =
        target.endLine !== undefined && target.endLine !== target.startLine
          ? new vscode.Range(start, 0, end, doc.lineAt(end).range.end.character)
          : new vscode.Range(start, 0, start, 0);
    }
    const editor = await vscode.window.showTextDocument(doc, { preview: true, selection });
    if (selection) {
      editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  }

  async copyPath(node: Node | undefined): Promise<void> {
    if (!node?.file) {
      return;
    }
    const r = node.regionIndex !== undefined ? node.file.regions[node.regionIndex] : undefined;
    await vscode.env.clipboard.writeText(r ? `${node.file.path}:${r.start_line}-${r.end_line}` : node.file.path);
  }

  async copyRegion(node: Node | undefined): Promise<void> {
    const file = node?.file;
    if (!file) {
      return;
    }
    const regions = node.regionIndex !== undefined ? [file.regions[node.regionIndex]] : file.regions;
    await vscode.env.clipboard.writeText(regions.map((r) => renderRegion(file, r)).join('\n'));
  }

  /** Asks the server for the index state and updates the status bar. */
  async status(): Promise<IndexStatus | undefined> {
    try {
      const s = parseStatus(await this.server.execute<unknown>(ServerCommands.status, {}));
      if (s.state === 'error') {
        this.statusBar.error(`Index: ${s.error ?? s.state}`);
      } else if (s.state === 'indexing' || s.state === 'starting') {
        this.statusBar.indexing(undefined, undefined, `Index: ${s.state}`);
      } else {
        this.statusBar.ready(s);
      }
      return s;
    } catch (err) {
      if (!(err instanceof ServerUnavailable)) {
        this.server.output.warn(`status failed: ${String(err)}`);
      }
      return undefined;
    }
  }

  async showStatus(): Promise<void> {
    const s = await this.status();
    if (!s) {
      const choice = await vscode.window.showWarningMessage(`${EXTENSION_NAME}: the server is ${this.server.state}.`, 'Restart Server', 'Show Output');
      if (choice === 'Restart Server') {
        await this.server.restart('requested from the status');
      } else if (choice === 'Show Output') {
        this.server.output.show();
      }
      return;
    }
    const parts = [`Index ${s.state}`];
    if (s.files !== undefined) {
      parts.push(`${s.files} files`);
    }
    if (s.roots.length) {
      parts.push(`root${s.roots.length === 1 ? '' : 's'}: ${s.roots.join(', ')}`);
    }
    if (s.version) {
      parts.push(`server ${s.version}`);
    }
    this.server.output.info(`status: ${JSON.stringify(s.raw)}`);
    const choice = await vscode.window.showInformationMessage(`${EXTENSION_NAME}: ${parts.join(' · ')}`, 'Reindex', 'Show Output');
    if (choice === 'Reindex') {
      await this.reindex();
    } else if (choice === 'Show Output') {
      this.server.output.show();
    }
  }

  async reindex(): Promise<void> {
    if (!(await this.server.ensureStarted())) {
      return;
    }
    this.statusBar.indexing(undefined, undefined, 'Reindexing…');
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `${EXTENSION_NAME}: reindexing`, cancellable: true },
        (_p, token) => this.server.execute<unknown>(ServerCommands.reindex, {}, token),
      );
    } catch (err) {
      if (!(err instanceof Cancelled)) {
        void vscode.window.showErrorMessage(`${EXTENSION_NAME}: reindex failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    await this.status();
  }
}
