/**
 * Hand-off to chat agents: the `@context` chat participant and the `findContext` language-model
 * tool. Both are registered only where this VS Code has the API, and answer in text when no
 * language model is available.
 */

import * as vscode from 'vscode';
import { type ChatTask, chatTask, followups, type Turn } from './chatTask';
import { CHAT_PARTICIPANT_ID, Commands, LM_TOOL_NAME } from './constants';
import type { Controller } from './controller';
import { learnedTerms } from './hints';
import type { RetrievalResult } from './protocol';
import { formatRelevance, oneLine } from './render';
import { Cancelled } from './server';

interface ToolInput {
  task: string;
  include?: string[];
  exclude?: string[];
  maxCycles?: number;
  pinned?: string[];
  seen?: string[];
}


/** The ranked list with links, as the participant shows it. */
function summary(controller: Controller, result: RetrievalResult): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  if (!result.files.length) {
    const stop = result.trace.at(-1)?.stop_reason;
    md.appendMarkdown('No relevant files found for this task' + (stop ? ` (${stop})` : '') + '.\n');
    return md;
  }
  md.appendMarkdown(`**${result.files.length} files** for _${oneLine(result.task, 100).replace(/[_*]/g, '\\$&')}_:\n\n`);
  result.files.forEach((f, i) => {
    const uri = controller.uriOf(f.path, f.root, f.uri);
    const first = f.regions[0];
    const link = uri ? `[${f.path}](${uri.with({ fragment: first ? `L${first.start_line}` : '' }).toString()})` : `\`${f.path}\``;
    md.appendMarkdown(`${i + 1}. ${link} — ${formatRelevance(f.relevance)} (${f.band}): ${f.reason}\n`);
  });
  return md;
}

/** The conversation so far, as chatTask.ts reads it. */
function turns(ctx: vscode.ChatContext): Turn[] {
  return ctx.history.map((h): Turn => {
    if ('prompt' in h) {
      return { kind: 'request', participant: h.participant, prompt: h.prompt, command: h.command };
    }
    const md = (h.result?.metadata ?? {}) as { task?: unknown; learned?: unknown; pinned?: unknown };
    return { kind: 'response', participant: h.participant, task: typeof md.task === 'string' ? md.task : undefined, learned: strings(md.learned), pinned: strings(md.pinned) };
  });
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** The files attached to the request (`#file`, drag and drop), as URIs: pinned for it. */
function attachedFiles(request: vscode.ChatRequest): string[] {
  const out: string[] = [];
  for (const ref of request.references) {
    const v = ref.value;
    const uri = v instanceof vscode.Uri ? v : v instanceof vscode.Location ? v.uri : undefined;
    if (uri?.scheme === 'file') {
      out.push(uri.toString());
    }
  }
  return out;
}

/** The pins the result does not hold (outside the workspace folders), as paths to show. */
function missedPins(pinned: readonly string[], result: RetrievalResult): string[] {
  const have = new Set(result.files.filter((f) => f.uri).map((f) => vscode.Uri.parse(f.uri as string).toString()));
  return pinned.filter((p) => !have.has(vscode.Uri.parse(p).toString())).map((p) => vscode.workspace.asRelativePath(vscode.Uri.parse(p), false));
}

function registerParticipant(controller: Controller): vscode.Disposable | undefined {
  if (typeof vscode.chat?.createChatParticipant !== 'function') {
    return undefined;
  }
  const handler: vscode.ChatRequestHandler = async (request, ctx, stream, token) => {
    const chat: ChatTask | undefined = chatTask(request.prompt, turns(ctx), CHAT_PARTICIPANT_ID, attachedFiles(request));
    if (!chat) {
      stream.markdown('Tell me the coding task, e.g. `@context fix the token expiry bug in refresh`.');
      return {};
    }
    const task = chat.task;
    stream.progress(chat.followUp ? 'Refining the last task…' : 'Finding the files and code regions this task needs…');
    let result: RetrievalResult;
    try {
      result = await controller.retrieve(task, { pinned: chat.pinned, followUp: chat.followUp ? chat.learned : undefined }, token);
    } catch (err) {
      if (err instanceof Cancelled) {
        return {};
      }
      const message = err instanceof Error ? err.message : String(err);
      stream.markdown(`Retrieval failed: ${message}`);
      return { errorDetails: { message } };
    }
    for (const f of result.files) {
      const uri = controller.uriOf(f.path, f.root, f.uri);
      if (!uri) {
        continue;
      }
      const r = f.regions[0];
      stream.reference(r ? new vscode.Location(uri, new vscode.Range(r.start_line - 1, 0, r.end_line - 1, 0)) : uri);
    }
    stream.markdown(summary(controller, result));
    stream.button({ command: Commands.findContext, title: 'Show in Sidebar', arguments: [task] });
    // what a follow-up in this chat builds on (chatTask.ts lastRun)
    const metadata = { task, files: result.files.map((f) => f.path), pinned: chat.pinned, learned: learnedTerms(result) };
    for (const w of result.warnings ?? []) {  // a setting of the user's to fix (the sidebar shows it too)
      stream.markdown(new vscode.MarkdownString('\n\n').appendText(`Warning: ${w}`).appendMarkdown('\n'));
    }
    const missed = missedPins(chat.pinned, result);
    if (missed.length) {
      stream.markdown(`\n\nAttached but outside the workspace folders, so not read: ${missed.map((p) => `\`${p}\``).join(', ')}.\n`);
    }
    if (request.command === 'files' || !result.files.length || !request.model) {
      return { metadata };
    }
    try {
      const context = await controller.markdown(result);
      const messages = [
        vscode.LanguageModelChatMessage.User(
          'You are helping with a coding task in the open workspace. The files and code regions below were retrieved for it, ranked by relevance with the reason each matters. Base your answer on them and cite file paths.\n\n' +
            context,
        ),
        vscode.LanguageModelChatMessage.User(task),
      ];
      stream.markdown('\n\n');
      const response = await request.model.sendRequest(messages, {}, token);
      for await (const chunk of response.text) {
        stream.markdown(chunk);
      }
    } catch (err) {
      if (!token.isCancellationRequested) {
        stream.markdown(`\n\n_No language model answered (${err instanceof Error ? err.message : String(err)}); the context is above and can be copied with "Copy Context as Markdown"._`);
      }
    }
    return { metadata };
  };
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, handler);
  participant.iconPath = new vscode.ThemeIcon('search');
  participant.followupProvider = {
    provideFollowups: (result) => {
      const md = result.metadata as { task?: string; files?: string[] } | undefined;
      const top = md?.files?.[0];
      return followups(md?.task ?? '', top ? top.split('/').pop() : undefined);
    },
  };
  return participant;
}

function registerTool(controller: Controller): vscode.Disposable | undefined {
  if (typeof vscode.lm?.registerTool !== 'function') {
    return undefined;
  }
  return vscode.lm.registerTool<ToolInput>(LM_TOOL_NAME, {
    prepareInvocation: (options) => ({
      invocationMessage: `Finding context for “${oneLine(String(options.input?.task ?? ''), 60)}”`,
    }),
    invoke: async (options, token) => {
      const input = options.input;
      if (!input || typeof input.task !== 'string' || !input.task.trim()) {
        throw new Error('findContext needs a "task": the coding task in plain words.');
      }
      const result = await controller.retrieve(
        input.task,
        {
          include: input.include,
          exclude: input.exclude,
          maxCycles: input.maxCycles,
          pinned: strings(input.pinned),
          seen: strings(input.seen),
        },
        token,
      );
      const text = await controller.markdown(result);
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
    },
  });
}

/** Registers what this VS Code supports; logs what it skipped. */
export function registerChat(context: vscode.ExtensionContext, controller: Controller, log: vscode.LogOutputChannel): void {
  for (const [name, register] of [
    ['chat participant @context', registerParticipant],
    ['language-model tool findContext', registerTool],
  ] as const) {
    try {
      const d = register(controller);
      if (d) {
        context.subscriptions.push(d);
        log.info(`Registered the ${name}.`);
      } else {
        log.info(`No ${name}: this ${vscode.env.appName} lacks the API.`);
      }
    } catch (err) {
      log.warn(`No ${name}: ${String(err)}`);
    }
  }
}
