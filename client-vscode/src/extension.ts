/**
 * Entry point: wires the output channel, status bar, sidebar, commands, chat hand-off and MCP
 * provider, then starts the server. Everything is registered before the server starts, so the
 * commands exist and explain themselves even when it cannot start.
 */

import * as vscode from 'vscode';
import { registerChat } from './chat';
import { registerCommands } from './commands';
import { OUTPUT_CHANNEL, RESULTS_VIEW } from './constants';
import { Controller } from './controller';
import { registerMcp } from './mcp';
import { ProgressRouter } from './progress';
import { onDidChangeInterpreter } from './python';
import { ResultsProvider } from './resultsView';
import { ServerManager } from './server';
import { affectsUs, getSettings, needsRestart } from './settings';
import { IndexStatusBar } from './statusBar';

let server: ServerManager | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel(OUTPUT_CHANNEL, { log: true });
  const statusBar = new IndexStatusBar();
  const router = new ProgressRouter(statusBar);
  server = new ServerManager(output, context.extensionPath);
  const manager = server;
  const routerFeature = router.feature();
  const view = new ResultsProvider();
  const tree = vscode.window.createTreeView(RESULTS_VIEW, { treeDataProvider: view, showCollapseAll: true });
  const controller = new Controller(context, manager, router, view, statusBar);
  context.subscriptions.push(output, statusBar, manager, view, tree, { dispose: () => router.dispose() });

  registerCommands(context, controller, manager, () => tree.selection[0]);
  controller.updatePinContext();
  registerChat(context, controller, output);
  registerMcp(context, output);

  manager.setFeatureFactory((client) => [routerFeature(client)]);
  context.subscriptions.push(
    manager.onDidChangeState(({ state, detail }) => {
      if (state === 'starting') {
        statusBar.starting();
      } else if (state === 'running') {
        void controller.status();
      } else if (state === 'missing' || state === 'failed') {
        statusBar.error(detail ?? `The server is ${state}.`);
      } else if (state === 'restarting') {
        statusBar.restarting(detail ?? 'The server stopped unexpectedly and is being restarted.');
      } else {
        statusBar.stopped();
      }
    }),
    router.onDidFinishIndexing(() => void controller.status()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (needsRestart(e)) {
        void manager.restart('server settings changed');
      } else if (affectsUs(e)) {
        manager.notifyConfigurationChanged();
      }
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void controller.status()),
  );
  void onDidChangeInterpreter(() => {
    if (!getSettings().pythonPath && !getSettings().serverCommand.length) {
      void manager.restart('the selected Python interpreter changed');
    }
  }).then((sub) => sub && context.subscriptions.push(sub));

  if (vscode.workspace.workspaceFolders?.length) {
    void manager.ensureStarted();
  } else {
    output.info('No folder is open: the server starts when one is.');
    statusBar.stopped();
  }
}

export async function deactivate(): Promise<void> {
  await server?.stop();
}
