/**
 * The JSON the server answers with, typed by the wire contract that `contract.ts` holds
 * (generated from the server's contract.py: tests/test_contract.py fails when they disagree),
 * plus tolerant readers. Pure: no `vscode` import.
 */

import type {
  CycleTraceJson,
  FileJson,
  RegionJson,
  ResultJson,
  RetrieveParams,
  StatusJson,
  TraceQueryJson,
} from './contract';

export { SCHEMA_VERSION } from './contract';

/** A region; `why` is optional for servers older than schema 1.1. */
export type Region = Omit<RegionJson, 'why'> & { why?: string };

export type Band = FileJson['band'] | 'irrelevant';

/** A file of a result; `role` (1.2) and `root` are optional for older servers. */
export interface FileResult extends Omit<FileJson, 'regions' | 'role' | 'root' | 'band'> {
  band: Band;
  role?: FileJson['role'];
  root?: string;
  regions: Region[];
}

export type TraceQuery = TraceQueryJson;
export type CycleTrace = CycleTraceJson;

export interface RetrievalResult extends Omit<ResultJson, 'files' | 'stats'> {
  files: FileResult[];
  /** Counts and times (contract StatsJson); read defensively. */
  stats: Record<string, unknown>;
}

/** Arguments of `iterativeRetrieval.retrieve` (one object, camelCase as in docs/lsp.md). */
export type RetrieveArgs = RetrieveParams;

/** What the status bar needs from `iterativeRetrieval.status` (contract StatusJson). */
export interface IndexStatus {
  state: StatusJson['state'] | 'unknown';
  /** Text files indexed, over all roots. */
  files?: number;
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

const STATES: readonly IndexStatus['state'][] = ['starting', 'indexing', 'ready', 'error', 'no-workspace'];

/**
 * Reads the `status` answer (StatusJson): the state, the file count, the roots and the version,
 * each checked, so that an answer of another shape shows as "unknown", never a crash.
 */
export function parseStatus(value: unknown): IndexStatus {
  const raw = asRecord(value);
  const state = STATES.find((s) => s === raw.state) ?? 'unknown';
  const roots = (Array.isArray(raw.roots) ? raw.roots : [])
    .map((r) => asRecord(r).root)
    .filter((r): r is string => typeof r === 'string');
  return {
    state,
    files: asNumber(raw.files),
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
    warnings: asStrings(value.warnings),
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
        follow_up: asStrings(t.query?.follow_up),
        from_branch: asStrings(t.query?.from_branch),
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
