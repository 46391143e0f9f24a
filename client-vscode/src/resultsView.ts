/** The sidebar tree: a TreeDataProvider over the pure model of treeModel.ts. */

import * as path from 'node:path';
import * as vscode from 'vscode';
import { Commands, ContextKeys, ItemContext } from './constants';
import { buildTree, type Node, type Target, type ViewState } from './treeModel';

/** The file a row points at, when the result says where it is. */
function fileUri(t: Target): vscode.Uri | undefined {
  if (t.uri?.startsWith('file:')) {
    return vscode.Uri.parse(t.uri);
  }
  if (path.isAbsolute(t.path)) {
    return vscode.Uri.file(t.path);
  }
  return t.root ? vscode.Uri.file(path.join(t.root, t.path)) : undefined;
}

const COLLAPSE: Record<Node['collapse'], vscode.TreeItemCollapsibleState> = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
};

export class ResultsProvider implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private _state: ViewState = { kind: 'empty' };
  private roots: Node[] = [];
  private readonly parents = new Map<Node, Node>();

  get state(): ViewState {
    return this._state;
  }

  setState(state: ViewState): void {
    this._state = state;
    this.refresh();
    void vscode.commands.executeCommand('setContext', ContextKeys.hasResult, state.kind === 'done');
    void vscode.commands.executeCommand('setContext', ContextKeys.running, state.kind === 'running');
  }

  refresh(): void {
    this.roots = buildTree(this._state);
    this.parents.clear();
    const walk = (n: Node): void => {
      for (const c of n.children) {
        this.parents.set(c, n);
        walk(c);
      }
    };
    this.roots.forEach(walk);
    this.changed.fire();
  }

  getChildren(element?: Node): Node[] {
    return element ? element.children : this.roots;
  }

  getParent(element: Node): Node | undefined {
    return this.parents.get(element);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const item = new vscode.TreeItem(node.label, COLLAPSE[node.collapse]);
    item.id = node.id;
    item.description = node.description;
    item.contextValue = node.contextValue;
    if (node.tooltip) {
      const md = new vscode.MarkdownString(node.tooltip);
      md.supportThemeIcons = false;
      item.tooltip = md;
    }
    const isFile = node.contextValue === ItemContext.file || node.contextValue === ItemContext.pinnedFile;
    const uri = isFile && node.target ? fileUri(node.target) : undefined;
    if (uri) {
      // A file row is the file: its file-type icon, and the SCM and problem decorations of the
      // Explorer. The relevance stays in the description (number and bar) and the tooltip.
      item.resourceUri = uri;
      item.iconPath = vscode.ThemeIcon.File;
    } else if (node.icon) {
      item.iconPath = new vscode.ThemeIcon(node.icon.id, node.icon.color ? new vscode.ThemeColor(node.icon.color) : undefined);
    }
    if (node.target) {
      // No arguments: VS Code keeps a row command's arguments in a cache that each redraw of the
      // tree clears, so a row clicked while the view redrew (the last progress message and the
      // result land within VS Code's 200 ms debounce) failed with "Actual command not found". The
      // command opens the selected row instead, which VS Code looks up by the row's stable id.
      item.command = { command: Commands.openItem, title: 'Open' };
      item.accessibilityInformation = { label: `${node.label} ${node.description ?? ''}` };
    }
    return item;
  }

  /** The first node matching `pred` (depth-first). */
  find(pred: (n: Node) => boolean): Node | undefined {
    const stack = [...this.roots];
    while (stack.length) {
      const n = stack.shift() as Node;
      if (pred(n)) {
        return n;
      }
      stack.unshift(...n.children);
    }
    return undefined;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
