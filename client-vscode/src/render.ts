/**
 * Text for people in the editor: the relevance bar, one-line summaries, Markdown tooltips and
 * one region as Markdown. The context handed to a chat or copied is the server's rendering
 * (`renderContext`, render.py), never made here. Pure: no `vscode` import.
 */

import { FENCE_LANGUAGES } from './contract';
import type { CycleTrace, FileResult, Region, RetrieveArgs, RetrievalResult } from './protocol';

/** The fence language for a path, by extension ('' when unknown). */
export function fenceLanguage(path: string): string {
  const dot = path.lastIndexOf('.');
  const slash = path.lastIndexOf('/');
  if (dot <= slash + 1) {
    return '';
  }
  return FENCE_LANGUAGES[path.slice(dot).toLowerCase()] ?? '';
}

/** A small bar of `width` cells for a relevance in 0..1, e.g. 0.72 → "▰▰▰▰▱". */
export function relevanceBar(relevance: number, width = 5): string {
  const r = Number.isFinite(relevance) ? Math.min(1, Math.max(0, relevance)) : 0;
  const filled = Math.round(r * width);
  return '▰'.repeat(filled) + '▱'.repeat(width - filled);
}

/** Two decimals, as the CLI prints relevance. */
export function formatRelevance(relevance: number): string {
  return (Number.isFinite(relevance) ? relevance : 0).toFixed(2);
}

/** Collapses whitespace and cuts to `max` characters with an ellipsis. */
export function oneLine(text: string, max = 120): string {
  const s = text.split(/\s+/).filter(Boolean).join(' ');
  return s.length <= max ? s : s.slice(0, max - 1) + '…';
}

/** The output channel's line for one retrieve: what was sent besides the task (the open files
 * only counted), and the task's length, never its words: a pasted task may hold a credential,
 * and no log may show one. */
export function retrieveLogLine(args: RetrieveArgs): string {
  const { task, ...rest } = args;
  return `retrieve (a task of ${task.length} characters) with ${JSON.stringify({ ...rest, openFiles: rest.openFiles?.length })}`;
}

/** "lines 12–30", or "line 7" for a one-line region. */
export function regionLabel(region: Pick<Region, 'start_line' | 'end_line'>): string {
  return region.start_line === region.end_line
    ? `line ${region.start_line}`
    : `lines ${region.start_line}–${region.end_line}`;
}

/** The first line of a region that says something (skips blanks, braces, comment starts). */
export function regionHeadline(text: string): string {
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line && !/^[{}()[\];,]*$/.test(line) && !/^(\/\*\*?|\*\/?|#|\/\/)\s*$/.test(line)) {
      return oneLine(line, 100);
    }
  }
  return '';
}

/** The folder part of a relative path ('' at the root). */
export function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** The last segment of a path. */
export function basename(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

/** Markdown-ish text as plain text for a one-line description: drops code-span backticks. */
export function plainText(text: string): string {
  return text.replace(/`([^`]*)`/g, '$1');
}

/** A fence that the text cannot close early: longer than any run of backticks in it (as render.py's fence_for). */
function fenceFor(text: string): string {
  let fence = '```';
  while (text.includes(fence)) {
    fence += '`';
  }
  return fence;
}

/** A fenced code block for a region, with the language of the file. */
export function codeBlock(path: string, text: string, maxLines?: number): string {
  let body = text;
  if (maxLines !== undefined) {
    const lines = text.split('\n');
    if (lines.length > maxLines) {
      body = lines.slice(0, maxLines).join('\n') + '\n…';
    }
  }
  const fence = fenceFor(body);
  return `${fence}${fenceLanguage(path)}\n${body}\n${fence}`;
}

/** Markdown tooltip of a ranked file. */
export function fileTooltip(file: FileResult): string {
  const out = [
    `**${file.path}**`,
    '',
    `Relevance **${formatRelevance(file.relevance)}** (${file.band}) ${relevanceBar(file.relevance, 10)} · found in cycle ${file.cycle}`,
    '',
    file.reason || '_no reason given_',
  ];
  if (file.missing.length) {
    out.push('', `Uses, defined elsewhere: ${file.missing.slice(0, 8).map((m) => `\`${m}\``).join(', ')}`);
  }
  if (file.regions.length) {
    out.push('', `Regions: ${file.regions.map((r) => regionLabel(r).replace(/^lines? /, '')).join(', ')}`);
  }
  return out.join('\n');
}

/** Markdown tooltip of a region: where it is and its first lines. */
export function regionTooltip(file: FileResult, region: Region, maxLines = 30): string {
  const why = region.why ? ` (${region.why})` : '';
  return `**${file.path}**, ${regionLabel(region)}${why}\n\n${codeBlock(file.path, region.text, maxLines)}`;
}

/** "4 files · 2 cycles · 0.28 s" for the task row. */
export function resultSummary(result: RetrievalResult): string {
  const parts = [`${result.files.length} file${result.files.length === 1 ? '' : 's'}`];
  const cycles = result.trace.length;
  parts.push(`${cycles} cycle${cycles === 1 ? '' : 's'}`);
  const seconds = result.stats.seconds;
  if (typeof seconds === 'number') {
    parts.push(`${seconds.toFixed(2)} s`);
  }
  return parts.join(' · ');
}

/** "14 candidates, 2 kept, 4 excluded" for a cycle row. */
export function cycleSummary(t: CycleTrace): string {
  const parts = [`${t.candidates} candidates`, `${t.kept} kept`];
  if (t.excluded.length) {
    parts.push(`${t.excluded.length} excluded`);
  }
  if (t.learned.length) {
    parts.push(`${t.learned.length} learned`);
  }
  return parts.join(', ');
}

/** One region as Markdown, for "Copy Region". */
export function renderRegion(file: FileResult, region: Region): string {
  return `\`${file.path}\` ${regionLabel(region)}:\n${codeBlock(file.path, region.text)}\n`;
}
