/**
 * The JSON the server answers with: the CLI's `--json` object (models.py `to_dict`) and the
 * `status` command's object. Pure types and tolerant readers; no `vscode` import.
 */

export interface Region {
  /** 1-based first line. */
  start_line: number;
  /** 1-based last line, inclusive. */
  end_line: number;
  /** What the span is ("function foo", "whole file", "matched lines"); schema 1.1 on. */
  why?: string;
  text: string;
}

export type Band = 'high' | 'medium' | 'low' | 'irrelevant';

export interface FileResult {
  /** Path relative to its root, with forward slashes. */
  path: string;
  /** 0..1. */
  relevance: number;
  band: Band;
  /** Why the file matters, in Markdown-ish words (may hold `code` spans). */
  reason: string;
  /** Symbols it uses that are defined in files not in the result. */
  missing: string[];
  /** The cycle that found it. */
  cycle: number;
  regions: Region[];
  /** The absolute root the path is relative to (the language server adds it). */
  root?: string;
  /** The file's `file://` URI (the language server adds it). */
  uri?: string;
}

export interface TraceQuery {
  patterns: string[];
  keywords: string[];
  excludes: string[];
  focus_areas: string[];
}

export interface CycleTrace {
  cycle: number;
  query: TraceQuery;
  candidates: number;
  kept: number;
  excluded: string[];
  learned: string[];
  gaps: string[];
  ranking: string[];
  stop_reason: string;
}

export interface RetrievalResult {
  schema_version: string;
  task: string;
  roots: string[];
  files: FileResult[];
  trace: CycleTrace[];
  stats: Record<string, unknown>;
}

/** Arguments of `iterativeRetrieval.retrieve` (one object, camelCase as in docs/lsp.md). */
export interface RetrieveArgs {
  task: string;
  maxCycles?: number;
  budget?: number;
  maxFiles?: number;
  /** Replaces the configured include globs for this request. */
  include?: string[];
  /** Added to the configured exclude globs for this request. */
  exclude?: string[];
  includeTests?: boolean | null;
  root?: string;
}

/** What the status bar needs from `iterativeRetrieval.status`; every field is optional. */
export interface IndexStatus {
  state: string;
  files?: number;
  indexed?: number;
  total?: number;
  roots: string[];
  version?: string;
  /** Why the index failed, when it did. */
  error?: string;
  raw: Record<string, unknown>;
}

function asRecord(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function asNumber(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function asStrings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Sum a count over a per-root list or map, e.g. `{roots: [{files: 40}, {files: 5}]}`. */
function sumOf(items: unknown[], key: string): number | undefined {
  let total: number | undefined;
  for (const it of items) {
    const n = asNumber(asRecord(it)[key]);
    if (n !== undefined) {
      total = (total ?? 0) + n;
    }
  }
  return total;
}

/**
 * Reads the `status` answer without trusting its exact shape: the state, file counts (top-level
 * or summed over per-root entries) and roots (strings or objects with a `root`/`path`).
 */
export function parseStatus(value: unknown): IndexStatus {
  const raw = asRecord(value);
  const index = asRecord(raw.index);
  const state =
    (typeof raw.state === 'string' && raw.state) ||
    (typeof raw.index_state === 'string' && raw.index_state) ||
    (typeof raw.indexState === 'string' && raw.indexState) ||
    (typeof index.state === 'string' && index.state) ||
    'unknown';
  const rootItems = Array.isArray(raw.roots) ? raw.roots : [];
  const roots = rootItems
    .map((r) => {
      if (typeof r === 'string') {
        return r;
      }
      const rec = asRecord(r);
      const name = rec.root ?? rec.path ?? rec.uri;
      return typeof name === 'string' ? name : undefined;
    })
    .filter((r): r is string => r !== undefined);
  const pick = (...keys: string[]): number | undefined => {
    for (const k of keys) {
      const n = asNumber(raw[k]) ?? asNumber(index[k]);
      if (n !== undefined) {
        return n;
      }
    }
    for (const k of keys) {
      const n = sumOf(rootItems, k);
      if (n !== undefined) {
        return n;
      }
    }
    return undefined;
  };
  const counts = asRecord(raw.files);
  const files =
    asNumber(raw.files) ?? asNumber(counts.indexed) ?? asNumber(counts.total) ?? pick('files', 'files_indexed', 'fileCount');
  return {
    state,
    files,
    indexed: asNumber(counts.indexed) ?? pick('indexed', 'done'),
    total: asNumber(counts.total) ?? pick('total'),
    roots,
    version: typeof raw.version === 'string' ? raw.version : undefined,
    error: typeof raw.error === 'string' && raw.error ? raw.error : undefined,
    raw,
  };
}

/** Checks the minimum the tree needs, so a wrong answer is an error message, not a crash. */
export function isRetrievalResult(value: unknown): value is RetrievalResult {
  const r = asRecord(value);
  return typeof r.task === 'string' && Array.isArray(r.files) && Array.isArray(r.trace);
}

/** Fills absent optional fields so that the view code can rely on them. */
export function normalizeResult(value: RetrievalResult): RetrievalResult {
  return {
    schema_version: value.schema_version ?? '',
    task: value.task,
    roots: asStrings(value.roots),
    stats: asRecord(value.stats),
    files: value.files.map((f) => ({
      ...f,
      reason: f.reason ?? '',
      missing: asStrings(f.missing),
      cycle: asNumber(f.cycle) ?? 1,
      relevance: asNumber(f.relevance) ?? 0,
      band: f.band ?? bandOf(asNumber(f.relevance) ?? 0),
      regions: Array.isArray(f.regions) ? f.regions : [],
    })),
    trace: value.trace.map((t) => ({
      ...t,
      query: {
        patterns: asStrings(t.query?.patterns),
        keywords: asStrings(t.query?.keywords),
        excludes: asStrings(t.query?.excludes),
        focus_areas: asStrings(t.query?.focus_areas),
      },
      excluded: asStrings(t.excluded),
      learned: asStrings(t.learned),
      gaps: asStrings(t.gaps),
      ranking: asStrings(t.ranking),
      stop_reason: t.stop_reason ?? '',
    })),
  };
}

/** The engine's bands (models.py `band_of`). */
export function bandOf(relevance: number): Band {
  if (relevance >= 0.8) {
    return 'high';
  }
  if (relevance >= 0.5) {
    return 'medium';
  }
  if (relevance >= 0.2) {
    return 'low';
  }
  return 'irrelevant';
}
