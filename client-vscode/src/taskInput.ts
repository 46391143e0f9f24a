/** The task input: a quick pick that takes free text and offers the recent tasks. */

import * as vscode from 'vscode';
import { EXTENSION_NAME } from './constants';

interface TaskItem extends vscode.QuickPickItem {
  task: string;
}

/** Asks for a task; the typed text wins over the recent tasks unless one is picked. */
export function askTask(recent: readonly string[]): Promise<string | undefined> {
  const qp = vscode.window.createQuickPick<TaskItem>();
  qp.title = `${EXTENSION_NAME}: Find Context for Task`;
  qp.placeholder = 'Describe the coding task, e.g. "Fix the token expiry bug in refresh"';
  qp.matchOnDescription = false;
  const recentItems: TaskItem[] = recent.map((t) => ({ label: t, task: t, description: 'recent', iconPath: new vscode.ThemeIcon('history') }));
  const update = (): void => {
    const typed = qp.value.trim();
    qp.items = typed
      ? [{ label: typed, task: typed, description: 'find context', alwaysShow: true, iconPath: new vscode.ThemeIcon('search') }, ...recentItems.filter((i) => i.task !== typed)]
      : recentItems;
  };
  update();
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: string | undefined): void => {
      if (!done) {
        done = true;
        resolve(value);
        qp.dispose();
      }
    };
    qp.onDidChangeValue(update);
    qp.onDidAccept(() => {
      const picked = qp.selectedItems[0] ?? qp.activeItems[0];
      finish(picked?.task ?? (qp.value.trim() || undefined));
    });
    qp.onDidHide(() => finish(undefined));
    qp.show();
  });
}
