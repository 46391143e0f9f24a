/** The editor's state as a retrieve sends it (hints.ts): the active file, its selection, the open files. */

import * as vscode from 'vscode';
import { type Doc, type EditorHints, editorHints } from './hints';

/** A `file:` URI inside a workspace folder: the only files the server may read. */
export function inWorkspace(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && vscode.workspace.getWorkspaceFolder(uri) !== undefined;
}

function doc(uri: vscode.Uri): Doc {
  return { uri: uri.toString(), inWorkspace: inWorkspace(uri) };
}

/** The visible editors' and the open tabs' files. */
function openUris(): vscode.Uri[] {
  const out = vscode.window.visibleTextEditors.map((e) => e.document.uri);
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (tab.input instanceof vscode.TabInputText) {
        out.push(tab.input.uri);
      }
    }
  }
  return out;
}

/** `activeFile`, `selection` (when not empty) and `openFiles` for the next retrieve. */
export function currentEditorHints(): EditorHints {
  const editor = vscode.window.activeTextEditor;
  const s = editor?.selection;
  return editorHints({
    active: editor ? doc(editor.document.uri) : undefined,
    selection: s ? { startLine: s.start.line, endLine: s.end.line, endCharacter: s.end.character, isEmpty: s.isEmpty } : undefined,
    open: openUris().map(doc),
  });
}
