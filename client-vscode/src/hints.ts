/**
 * What a retrieve sends besides the task (docs/lsp.md): the editor's state (`activeFile`,
 * `selection`, `openFiles`), the user's pins and excludes kept per workspace, and a chat
 * follow-up's learned terms. Pure: no `vscode` import; the caller reads VS Code into the plain
 * shapes below.
 */

import { MAX_HINT_PATHS, type RetrieveParams, type SelectionJson } from './contract';
import type { RetrievalResult } from './protocol';

export { MAX_HINT_PATHS };

/** A document as the editor state needs it: its URI and whether it is a workspace file. */
export interface Doc {
  /** The URI as a string (`file:///…`). */
  uri: string;
  /** A `file:` document inside a workspace folder: the only ones sent. */
  inWorkspace: boolean;
}

/** A selection in 0-based lines and characters, as VS Code has it. */
export interface Span {
  startLine: number;
  endLine: number;
  endCharacter: number;
  isEmpty: boolean;
}

export interface EditorState {
  active?: Doc;
  selection?: Span;
  /** Visible editors and open tabs, in any order, duplicates allowed. */
  open: Doc[];
}

export type EditorHints = Pick<RetrieveParams, 'activeFile' | 'selection' | 'openFiles'>;

/**
 * The 1-based lines of a non-empty selection; a selection that ends at the start of a line
 * (whole lines selected with Shift+Down) does not count that line.
 */
export function selectedLines(s: Span | undefined): SelectionJson | undefined {
  if (!s || s.isEmpty) {
    return undefined;
  }
  const end = s.endCharacter === 0 && s.endLine > s.startLine ? s.endLine - 1 : s.endLine;
  return { start_line: s.startLine + 1, end_line: end + 1 };
}

/** The editor's part of the retrieve arguments: workspace files only, each once, capped. */
export function editorHints(state: EditorState): EditorHints {
  const out: EditorHints = {};
  const active = state.active?.inWorkspace ? state.active.uri : undefined;
  if (active) {
    out.activeFile = active;
    const lines = selectedLines(state.selection);
    if (lines) {
      out.selection = lines;
    }
  }
  const open = [...new Set(state.open.filter((d) => d.inWorkspace).map((d) => d.uri))].filter((u) => u !== active);
  if (open.length) {
    out.openFiles = open.slice(0, MAX_HINT_PATHS);
  }
  return out;
}

/** Adds `uri` to a list of pins or excludes (kept once, at the end); at most MAX_HINT_PATHS, the oldest dropped. */
export function added(list: readonly string[], uri: string): string[] {
  return [...list.filter((u) => u !== uri), uri].slice(-MAX_HINT_PATHS);
}

export function removed(list: readonly string[], uri: string): string[] {
  return list.filter((u) => u !== uri);
}

/** The terms a run learned, in order, each once: those it kept from the answer it followed
 * up, then the union of its trace's `learned` (a follow-up of a follow-up keeps the first's). */
export function learnedTerms(result: Pick<RetrievalResult, 'trace'>): string[] {
  const kept = result.trace.flatMap((t) => t.query.follow_up);
  return [...new Set([...kept, ...result.trace.flatMap((t) => t.learned)])].slice(0, MAX_HINT_PATHS);
}

/** What the user keeps for the workspace and what one request adds. */
export interface Steering {
  pinned: readonly string[];
  excluded: readonly string[];
  /** Pins of this request only (a chat's `#file` references, the last chat run's pins). */
  extraPins?: readonly string[];
  /** The previous run's learned terms, when this task follows it up. */
  followUp?: readonly string[];
  /** Files the caller (an agent) has read already: the server hands out what is new. */
  seen?: readonly string[];
}

/** The steering part of the retrieve arguments: only the lists that hold something. */
export function steeringArgs(s: Steering): Pick<RetrieveParams, 'pinned' | 'excluded' | 'followUp' | 'seen'> {
  const excluded = new Set(s.excluded);
  const pinned = [...new Set([...s.pinned, ...(s.extraPins ?? [])])].filter((u) => !excluded.has(u)).slice(-MAX_HINT_PATHS);
  const out: Pick<RetrieveParams, 'pinned' | 'excluded' | 'followUp' | 'seen'> = {};
  if (pinned.length) {
    out.pinned = pinned;
  }
  if (s.excluded.length) {
    out.excluded = [...s.excluded].slice(-MAX_HINT_PATHS);
  }
  if (s.followUp?.length) {
    out.followUp = [...s.followUp].slice(0, MAX_HINT_PATHS);
  }
  if (s.seen?.length) {
    out.seen = [...new Set(s.seen)].slice(0, MAX_HINT_PATHS);
  }
  return out;
}
