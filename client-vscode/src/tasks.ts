/**
 * Where a task's words come from: the recent-task list and the text of a selection or of the
 * diagnostics at the cursor. Pure: no `vscode` import.
 */

/** Puts `task` first, drops duplicates (ignoring surrounding space) and keeps at most `max`. */
export function rememberTask(recent: readonly string[], task: string, max: number): string[] {
  const t = task.trim();
  if (!t || max <= 0) {
    return max <= 0 ? [] : [...recent].slice(0, max);
  }
  return [t, ...recent.filter((r) => r.trim() !== t)].slice(0, max);
}

/** A diagnostic reduced to what a task needs. */
export interface DiagnosticLike {
  message: string;
  source?: string;
  code?: string | number;
  /** 0-based, as in VS Code. */
  line: number;
  severity?: 'error' | 'warning' | 'info' | 'hint';
}

export interface SelectionContext {
  /** The selected text ('' when nothing is selected). */
  selection: string;
  /** Diagnostics touching the cursor line. */
  diagnostics: DiagnosticLike[];
  /** The document's path relative to its workspace folder. */
  relativePath: string;
  /** 0-based cursor line. */
  line: number;
  /** The word under the cursor, used when there is no selection nor diagnostic. */
  word?: string;
}

const MAX_TASK_CHARS = 4000;

/**
 * The task for "Find Context for Selection": the selected text (with where it was selected),
 * else the diagnostics at the cursor ("error TS2322 at src/x.ts:12: message"), else the word at
 * the cursor with its place; undefined when there is nothing to go on.
 */
export function selectionTask(ctx: SelectionContext): string | undefined {
  const sel = ctx.selection.trim();
  if (sel) {
    const text = sel.length > MAX_TASK_CHARS ? sel.slice(0, MAX_TASK_CHARS) : sel;
    return `${text}\n\n(selected in ${ctx.relativePath}:${ctx.line + 1})`;
  }
  if (ctx.diagnostics.length) {
    const order = { error: 0, warning: 1, info: 2, hint: 3 } as const;
    const sorted = [...ctx.diagnostics].sort((a, b) => order[a.severity ?? 'info'] - order[b.severity ?? 'info']);
    const lines = sorted.slice(0, 5).map((d) => {
      const tag = [d.severity ?? 'problem', d.source, d.code !== undefined ? String(d.code) : undefined]
        .filter(Boolean)
        .join(' ');
      return `${tag} at ${ctx.relativePath}:${d.line + 1}: ${d.message.trim()}`;
    });
    return `Fix: ${lines.join('\n')}`;
  }
  if (ctx.word && ctx.word.trim()) {
    return `${ctx.word.trim()} in ${ctx.relativePath}:${ctx.line + 1}`;
  }
  return undefined;
}
