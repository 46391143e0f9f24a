/** Registers the extension's commands; each is a thin call into the Controller. */

import * as path from 'node:path';
import * as vscode from 'vscode';
import { Commands, EXTENSION_NAME } from './constants';
import type { Controller } from './controller';
import type { ServerManager } from './server';
import { type DiagnosticLike, selectionTask } from './tasks';
import { askTask } from './taskInput';
import type { Node } from './treeModel';

const SEVERITY: Record<vscode.DiagnosticSeverity, DiagnosticLike['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** The task for the active editor: its selection, else the diagnostics at the cursor. */
function taskFromEditor(editor: vscode.TextEditor): string | undefined {
  const doc = editor.document;
  const cursor = editor.selection.active;
  const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
  const rel = folder ? path.relative(folder.uri.fsPath, doc.uri.fsPath).split(path.sep).join('/') : path.basename(doc.uri.fsPath);
  const diagnostics = vscode.languages
    .getDiagnostics(doc.uri)
    .filter((d) => d.range.start.line <= cursor.line && cursor.line <= d.range.end.line)
    .map((d): DiagnosticLike => ({
      message: d.message,
      source: d.source,
      code: typeof d.code === 'object' ? d.code.value : d.code,
      line: d.range.start.line,
      severity: SEVERITY[d.severity],
    }));
  const wordRange = doc.getWordRangeAtPosition(cursor);
  return selectionTask({
    selection: editor.selections.map((s) => doc.getText(s)).join('\n'),
    diagnostics,
    relativePath: rel,
    line: cursor.line,
    word: wordRange ? doc.getText(wordRange) : undefined,
  });
}

/**
 * The sidebar's selected row. While VS Code swaps a redrawn tree's rows it knows none of them for
 * a few milliseconds, so a click landing then asks again until the new rows are in.
 */
async function selectedRow(selected: () => Node | undefined): Promise<Node | undefined> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const node = selected();
    if (node) {
      return node;
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  return undefined;
}

/**
 * `selected` is the sidebar's selected row: a row's click runs openItem without arguments (see
 * ResultsProvider.getTreeItem), the context menus pass the row.
 */
export function registerCommands(
  context: vscode.ExtensionContext,
  controller: Controller,
  server: ServerManager,
  selected: () => Node | undefined,
): void {
  const reg = (id: string, fn: (...args: never[]) => unknown): void => {
    context.subscriptions.push(vscode.commands.registerCommand(id, fn as (...args: unknown[]) => unknown));
  };
  reg(Commands.findContext, async (task?: unknown) => {
    const t = typeof task === 'string' && task.trim() ? task.trim() : await askTask(controller.recentTasks);
    if (t) {
      await controller.run(t);
    }
  });
  reg(Commands.findContextForSelection, async () => {
    const editor = vscode.window.activeTextEditor;
    const task = editor && taskFromEditor(editor);
    if (!task) {
      void vscode.window.showInformationMessage(`${EXTENSION_NAME}: select some text (an error, a stack trace, a name) or put the cursor on a problem first.`);
      return;
    }
    await controller.run(task);
  });
  reg(Commands.rerun, async () => {
    if (!(await controller.rerun())) {
      await vscode.commands.executeCommand(Commands.findContext);
    }
  });
  reg(Commands.cancel, () => controller.cancel());
  reg(Commands.copyContext, () => controller.copyContext('markdown'));
  reg(Commands.copyContextAs, () => controller.copyContextAs());
  reg(Commands.explainFile, (target?: vscode.Uri | Node) => controller.explain(target));
  reg(Commands.clear, () => controller.clear());
  reg(Commands.showIndexStatus, () => controller.showStatus());
  reg(Commands.reindex, () => controller.reindex());
  reg(Commands.restartServer, () => server.restart('Restart Server command'));
  reg(Commands.showOutput, () => server.output.show());
  reg(Commands.openItem, async (node?: Node) => controller.open(node ?? (await selectedRow(selected))));
  reg(Commands.copyPath, (node: Node) => controller.copyPath(node));
  reg(Commands.copyRegion, (node: Node) => controller.copyRegion(node));
  reg(Commands.excludeAndRerun, (target?: vscode.Uri | Node) => controller.excludeAndRerun(target));
  reg(Commands.pinAndRerun, (target?: vscode.Uri | Node) => controller.pinAndRerun(target));
  reg(Commands.unpin, (target?: vscode.Uri | Node) => controller.unpin(target));
  reg(Commands.forgetPins, () => controller.forgetPins());
}
