/**
 * The sidebar's content as plain data: which rows exist, their labels, descriptions, Markdown
 * tooltips, icons and what a click opens. resultsView.ts turns these into TreeItems; tests check
 * them without VS Code.
 */

import { ItemContext } from './constants';
import type { Band, CycleTrace, FileResult, RetrievalResult } from './protocol';
import {
  basename,
  cycleSummary,
  dirname,
  fileTooltip,
  formatRelevance,
  oneLine,
  plainText,
  regionHeadline,
  regionLabel,
  regionTooltip,
  relevanceBar,
  resultSummary,
} from './render';

export type Collapse = 'none' | 'collapsed' | 'expanded';

/** A codicon id and an optional theme colour id. */
export interface Icon {
  id: string;
  color?: string;
}

/** Where a click goes: a file of a result, optionally a 1-based line range to select. */
export interface Target {
  path: string;
  root?: string;
  uri?: string;
  startLine?: number;
  endLine?: number;
}

export interface Node {
  /** Stable across refreshes of the same result, so that expansion state survives. */
  id: string;
  contextValue: string;
  label: string;
  description?: string;
  /** Markdown. */
  tooltip?: string;
  icon?: Icon;
  collapse: Collapse;
  children: Node[];
  target?: Target;
  /** The file a file or region row belongs to (for copy and exclude actions). */
  file?: FileResult;
  /** Index of the region within `file.regions`, for region rows. */
  regionIndex?: number;
}

/** What the view shows: nothing yet, a retrieval under way, a result, or a failure. */
export type ViewState =
  | { kind: 'empty' }
  | { kind: 'running'; task: string; message?: string; previous?: RetrievalResult }
  | { kind: 'done'; result: RetrievalResult; excluded: string[]; pinned?: string[] }
  | { kind: 'error'; task: string; message: string };

/** Band → codicon and chart colour: a filled circle for high, emptier ones below. */
export function bandIcon(band: Band): Icon {
  switch (band) {
    case 'high':
      return { id: 'circle-large-filled', color: 'charts.green' };
    case 'medium':
      return { id: 'circle-filled', color: 'charts.yellow' };
    case 'low':
      return { id: 'circle-outline', color: 'charts.orange' };
    default:
      return { id: 'circle-small', color: 'disabledForeground' };
  }
}

function leaf(id: string, label: string, description?: string, tooltip?: string, icon?: Icon): Node {
  return { id, contextValue: ItemContext.detail, label, description, tooltip, icon, collapse: 'none', children: [] };
}

function listDetail(id: string, label: string, items: string[], icon: string): Node | undefined {
  if (!items.length) {
    return undefined;
  }
  const shown = items.slice(0, 12).join(', ') + (items.length > 12 ? ` … (+${items.length - 12})` : '');
  const tooltip = `**${label}** (${items.length})\n\n` + items.map((x) => `- \`${x}\``).join('\n');
  return leaf(id, label, shown, tooltip, { id: icon });
}

/** The rows under one cycle: keywords (and those the task did not say: a follow-up's, the
 * branch's), learned terms, patterns, excludes, focus, gaps, stop. */
export function cycleDetails(t: CycleTrace, idBase: string): Node[] {
  const rows: (Node | undefined)[] = [
    listDetail(`${idBase}:keywords`, 'Keywords', t.query.keywords, 'key'),
    listDetail(`${idBase}:followUp`, 'Kept from the last answer', t.query.follow_up, 'history'),
    listDetail(`${idBase}:fromBranch`, "From the branch's commits", t.query.from_branch, 'git-commit'),
    listDetail(`${idBase}:learned`, 'Learned', t.learned, 'lightbulb'),
    listDetail(`${idBase}:patterns`, 'Patterns', t.query.patterns, 'filter'),
    listDetail(`${idBase}:excludes`, 'Query excludes', t.query.excludes, 'exclude'),
    listDetail(`${idBase}:excluded`, 'Excluded this cycle', t.excluded, 'circle-slash'),
    listDetail(`${idBase}:focus`, 'Focus', t.query.focus_areas, 'target'),
    listDetail(`${idBase}:gaps`, 'Gaps', t.gaps, 'question'),
    leaf(`${idBase}:counts`, 'Candidates', `${t.candidates} candidates, ${t.kept} kept`, undefined, { id: 'list-ordered' }),
    t.stop_reason ? leaf(`${idBase}:stop`, 'Stop', t.stop_reason, t.stop_reason, { id: 'debug-stop' }) : undefined,
  ];
  return rows.filter((r): r is Node => r !== undefined);
}

/** The Trace row and its cycles. */
export function traceNode(result: RetrievalResult): Node {
  const cycles = result.trace.map((t, i): Node => ({
    id: `trace:cycle:${t.cycle}`,
    contextValue: ItemContext.cycle,
    label: `Cycle ${t.cycle}`,
    description: cycleSummary(t),
    tooltip: `**Cycle ${t.cycle}**: ${cycleSummary(t)}` + (t.stop_reason ? `\n\nStopped: ${t.stop_reason}` : ''),
    icon: { id: i === result.trace.length - 1 ? 'pass' : 'sync' },
    collapse: 'collapsed',
    children: cycleDetails(t, `trace:cycle:${t.cycle}`),
  }));
  const last = result.trace[result.trace.length - 1];
  return {
    id: 'trace',
    contextValue: ItemContext.trace,
    label: 'Trace',
    description: `${result.trace.length} cycle${result.trace.length === 1 ? '' : 's'}` + (last?.stop_reason ? ` · ${last.stop_reason}` : ''),
    tooltip: 'How each cycle searched, what it learned and what it excluded.',
    icon: { id: 'history' },
    collapse: 'collapsed',
    children: cycles,
  };
}

/** One ranked file: name, relevance number and bar, folder and reason; its regions below. */
export function fileNode(file: FileResult, rank: number): Node {
  const key = `file:${file.root ?? ''}:${file.path}`;
  const dir = dirname(file.path);
  const first = file.regions[0];
  const pin = file.pinned ? 'pinned · ' : '';
  return {
    id: key,
    contextValue: file.pinned ? ItemContext.pinnedFile : ItemContext.file,
    label: basename(file.path),
    description: `${pin}${formatRelevance(file.relevance)} ${relevanceBar(file.relevance)}  ${dir ? dir + ' · ' : ''}${oneLine(plainText(file.reason), 160)}`,
    tooltip: `#${rank} · ${file.pinned ? 'pinned by you (always in the context) · ' : ''}` + fileTooltip(file),
    icon: bandIcon(file.band),
    collapse: file.regions.length ? 'collapsed' : 'none',
    target: { path: file.path, root: file.root, uri: file.uri, startLine: first?.start_line, endLine: first?.start_line },
    file,
    children: file.regions.map((r, i) => ({
      id: `${key}:${r.start_line}-${r.end_line}:${i}`,
      contextValue: ItemContext.region,
      label: regionLabel(r),
      description: regionHeadline(r.text),
      tooltip: regionTooltip(file, r),
      icon: { id: 'symbol-snippet' },
      collapse: 'none',
      children: [],
      target: { path: file.path, root: file.root, uri: file.uri, startLine: r.start_line, endLine: r.end_line },
      file,
      regionIndex: i,
    })),
  };
}

function taskNode(task: string, description: string, icon: Icon, tooltipExtra = ''): Node {
  return {
    id: 'task',
    contextValue: ItemContext.task,
    label: oneLine(task, 80),
    description,
    tooltip: `**Task**\n\n${task}${tooltipExtra ? '\n\n' + tooltipExtra : ''}`,
    icon,
    collapse: 'none',
    children: [],
  };
}

function message(id: string, label: string, icon: string, tooltip?: string): Node {
  return { id, contextValue: ItemContext.message, label, tooltip, icon: { id: icon }, collapse: 'none', children: [] };
}

/** The top-level rows for a view state ([] when empty, so that the welcome content shows). */
export function buildTree(state: ViewState): Node[] {
  switch (state.kind) {
    case 'empty':
      return [];
    case 'running':
      return [
        taskNode(state.task, state.message ?? 'searching…', { id: 'loading~spin' }),
      ];
    case 'error':
      return [
        taskNode(state.task, 'failed', { id: 'error', color: 'errorForeground' }),
        message('error', oneLine(state.message, 200), 'warning', state.message),
      ];
    case 'done': {
      const r = state.result;
      const pinned = state.pinned ?? [];
      const extra = [
        pinned.length ? `Pinned by you: ${pinned.map((e) => `\`${e}\``).join(', ')}` : '',
        state.excluded.length ? `Excluded by you: ${state.excluded.map((e) => `\`${e}\``).join(', ')}` : '',
      ].filter(Boolean).join('\n\n');
      const counts = (pinned.length ? ` · ${pinned.length} pinned` : '') + (state.excluded.length ? ` · ${state.excluded.length} excluded` : '');
      const rows: Node[] = [taskNode(r.task, resultSummary(r) + counts, { id: 'search' }, extra)];
      // what the run could not do as configured (a folder's gitBase that names no commit)
      (r.warnings ?? []).forEach((w, i) => rows.push(message(`warning-${i}`, oneLine(w, 200), 'warning', w)));
      if (!r.files.length) {
        const stop = r.trace.at(-1)?.stop_reason;
        rows.push(message('none', 'No relevant files found', 'info',
          (stop ? `Stopped: ${stop}. ` : '') + 'Try other words, fewer excludes, or Reindex.'));
      }
      r.files.forEach((f, i) => rows.push(fileNode(f, i + 1)));
      if (r.trace.length) {
        rows.push(traceNode(r));
      }
      return rows;
    }
  }
}

/** All nodes depth-first, for lookups and tests. */
export function flatten(nodes: Node[]): Node[] {
  const out: Node[] = [];
  const walk = (ns: Node[]): void => {
    for (const n of ns) {
      out.push(n);
      walk(n.children);
    }
  };
  walk(nodes);
  return out;
}
