/** The status-bar item for the index: starting, indexing n/N, ready, error. Click: index status. */

import * as vscode from 'vscode';
import { Commands, EXTENSION_NAME } from './constants';
import type { IndexStatus } from './protocol';

export class IndexStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem('iterativeRetrieval.index', vscode.StatusBarAlignment.Left, 10);
    this.item.name = `${EXTENSION_NAME} Index`;
    this.item.command = Commands.showIndexStatus;
    this.starting();
    this.item.show();
  }

  private set(text: string, tooltip: string, error = false): void {
    this.item.text = text;
    this.item.tooltip = new vscode.MarkdownString(`**${EXTENSION_NAME}**\n\n${tooltip}\n\n_Click for the index status._`);
    this.item.backgroundColor = error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  starting(): void {
    this.set('$(loading~spin) Retrieval', 'Starting the server…');
  }

  indexing(done?: number, total?: number, message?: string): void {
    const counts = done !== undefined && total !== undefined ? ` ${done}/${total}` : '';
    this.set(`$(sync~spin) Indexing${counts}`, message ?? 'Indexing the workspace…');
  }

  ready(status?: IndexStatus): void {
    const files = status?.files !== undefined ? `${status.files} files` : 'ready';
    const roots = status?.roots.length ? `\n\nRoots: ${status.roots.map((r) => `\`${r}\``).join(', ')}` : '';
    this.set(`$(database) ${files}`, `Index ready${status?.files !== undefined ? `: ${status.files} files` : ''}.${roots}`);
  }

  restarting(message: string): void {
    this.set('$(debug-restart) Retrieval: restarting', message, true);
  }

  error(message: string): void {
    this.set('$(error) Retrieval', message, true);
  }

  stopped(): void {
    this.set('$(circle-slash) Retrieval', 'The server is not running.');
  }

  dispose(): void {
    this.item.dispose();
  }
}
