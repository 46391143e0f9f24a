/**
 * The task an `@context` request stands for: its prompt, refined by the conversation (a follow-up
 * builds on the last run this participant answered: its task, its learned terms as `followUp`,
 * and its pins), with the files the user attached (`#file`) pinned for the request.
 * Pure: no `vscode` import.
 */

/** What one earlier turn of the chat says, reduced to what the task needs. */
export type Turn =
  | { kind: 'request'; participant: string; prompt: string; command?: string }
  | { kind: 'response'; participant: string; task?: string; learned?: string[]; pinned?: string[] };

/** What an answer of this participant keeps in its metadata, for the next turn to build on. */
export interface LastRun {
  task: string;
  /** The run's learned terms (the union of its trace's `learned`). */
  learned: string[];
  /** The files pinned for it (URIs). */
  pinned: string[];
}

export interface ChatTask {
  /** The task sent to the server. */
  task: string;
  /** Files pinned for this request (URIs): the attachments, and on a follow-up the last run's pins. */
  pinned: string[];
  /** The last run's learned terms, sent as `followUp` when the prompt refines it. */
  learned: string[];
  /** True when the prompt refines the last task rather than starting a new one. */
  followUp: boolean;
}

/** The run this participant last answered in `history`, newest first. */
export function lastRun(history: readonly Turn[], participant: string): LastRun | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const t = history[i];
    if (t.kind === 'response' && t.participant === participant && t.task) {
      return { task: t.task, learned: t.learned ?? [], pinned: t.pinned ?? [] };
    }
  }
  return undefined;
}

/** The task this participant last answered in `history`. */
export function lastTask(history: readonly Turn[], participant: string): string | undefined {
  return lastRun(history, participant)?.task;
}

/**
 * The task for `prompt`. With a run answered earlier in the conversation, the prompt refines it
 * ("the refresh path too" → the last task plus that, with its learned terms and pins), an empty
 * prompt repeats it (with its pins); the prompt starts a new task when there is none. Attached
 * files are pinned.
 */
export function chatTask(prompt: string, history: readonly Turn[], participant: string, attached: readonly string[]): ChatTask | undefined {
  const p = prompt.trim();
  const last = lastRun(history, participant);
  const attachedOnce = [...new Set(attached.filter((a) => a.trim()))];
  if (last && p) {
    return { task: `${last.task}\n\nFollow-up: ${p}`, pinned: union(last.pinned, attachedOnce), learned: last.learned, followUp: true };
  }
  if (last) {
    return { task: last.task, pinned: union(last.pinned, attachedOnce), learned: [], followUp: false };
  }
  if (!p && !attachedOnce.length) {
    return undefined;
  }
  return { task: p || 'Explain these files', pinned: attachedOnce, learned: [], followUp: false };
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/** The follow-ups offered under an answer: the files only, and a closer look at the top file. */
export function followups(task: string, topFile: string | undefined): { prompt: string; label: string; command?: string }[] {
  const out: { prompt: string; label: string; command?: string }[] = [{ prompt: '', label: 'List only the files and regions', command: 'files' }];
  if (topFile) {
    out.push({ prompt: `how ${topFile} is used`, label: `How is ${topFile} used?` });
  }
  return task ? out : [];
}
