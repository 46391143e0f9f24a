/**
 * The task an `@context` request stands for: its prompt, refined by the conversation (a follow-up
 * builds on the last task this participant answered), with the files the user attached (`#file`)
 * pinned by naming them in the task, which the server's task reader takes as paths first.
 * Pure: no `vscode` import.
 */

/** What one earlier turn of the chat says, reduced to what the task needs. */
export type Turn =
  | { kind: 'request'; participant: string; prompt: string; command?: string }
  | { kind: 'response'; participant: string; task?: string };

export interface ChatTask {
  /** The task sent to the server. */
  task: string;
  /** The task before the attachments were named in it (kept in the result's metadata). */
  base: string;
  /** Workspace-relative paths of the attached files. */
  pinned: string[];
  /** True when the prompt refines the last task rather than starting a new one. */
  followUp: boolean;
}

/** The task this participant last answered in `history`, newest first. */
export function lastTask(history: readonly Turn[], participant: string): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const t = history[i];
    if (t.kind === 'response' && t.participant === participant && t.task) {
      return t.task;
    }
  }
  return undefined;
}

/**
 * The task for `prompt`. With a task answered earlier in the conversation, the prompt refines it
 * ("the refresh path too" → the last task plus that), an empty prompt repeats it; the prompt
 * starts a new task when there is none. Attached files are named at the end.
 */
export function chatTask(prompt: string, history: readonly Turn[], participant: string, attached: readonly string[]): ChatTask | undefined {
  const p = prompt.trim();
  const last = lastTask(history, participant);
  let base: string;
  let followUp = false;
  if (last && p) {
    base = `${last}\n\nFollow-up: ${p}`;
    followUp = true;
  } else {
    base = p || last || '';
  }
  const pinned = [...new Set(attached.filter((a) => a.trim()))];
  if (!base && !pinned.length) {
    return undefined;
  }
  const task = pinned.length ? `${base || 'Explain these files'}\n\nFiles: ${pinned.join(', ')}` : base;
  return { task, base: base || task, pinned, followUp };
}

/** The follow-ups offered under an answer: the files only, and a closer look at the top file. */
export function followups(task: string, topFile: string | undefined): { prompt: string; label: string; command?: string }[] {
  const out: { prompt: string; label: string; command?: string }[] = [{ prompt: '', label: 'List only the files and regions', command: 'files' }];
  if (topFile) {
    out.push({ prompt: `how ${topFile} is used`, label: `How is ${topFile} used?` });
  }
  return task ? out : [];
}
