/**
 * The wire contract, generated from server/iterative_retrieval/contract.py and the
 * settings table of config.py by `python -m iterative_retrieval.schema --write`.
 * Do not edit: tests/test_contract.py fails when this file is stale.
 */

/* eslint-disable */

export const SCHEMA_VERSION = "1.5";

/** The most paths (or terms) one hint list of `retrieve` may hold. */
export const MAX_HINT_PATHS = 200;

/** One cycle of the loop. */
export interface CycleTraceJson {
  /** 1-based cycle number. */
  cycle: number;
  query: TraceQueryJson;
  /** How many files DISPATCH proposed. */
  candidates: number;
  /** How many files are >= 0.7 after merging this cycle. */
  kept: number;
  /** Files under 0.2 that REFINE excluded for later cycles. */
  excluded: string[];
  /** Terms REFINE learned from the codebase. */
  learned: string[];
  /** Task concepts no good file covers yet. */
  gaps: string[];
  /** The merged top 20 paths after this cycle. */
  ranking: string[];
  /** Why the loop stopped after this cycle (empty when it went on). */
  stop_reason: string;
}

/** The one argument of `iterativeRetrieval.explain`. */
export interface ExplainParams {
  /** The file: relative to a workspace folder, absolute inside one, or a `file://` URI. */
  path: string;
  /** The task in plain words: a request, an issue, a stack trace (at most 200000 characters). */
  task: string;
}

/** One file's evaluation for a task (`Engine.explain`). */
export interface ExplanationJson {
  task: string;
  /** Relative to its root, forward slashes. */
  path: string;
  root: string;
  /** 0–1; 0 when the file is not among the candidates. */
  relevance: number;
  /** irrelevant when the file is not among the files retrieved. */
  band: "high" | "medium" | "low" | "irrelevant";
  reason: string;
  /** Symbols the file uses that are defined in files not in the result. */
  missing: string[];
  /** 1-based rank among the files retrieved for the task; null when not among them. */
  rank: number | null;
  /** How many files were retrieved for the task (up to 200). */
  of: number;
  /** The loop cycle that found it. */
  cycle: number | null;
  regions: LineRangeJson[];
}

/** A file of a result sent back to be rendered: what rendering needs is required, the rest of FileJson may be there. */
export interface FileInJson {
  path: string;
  relevance: number;
  reason?: string;
  missing?: string[];
  cycle?: number;
  regions?: RegionInJson[];
  role?: string;
  band?: string;
  root?: string;
  uri?: string;
}

/** One file of the context, best first. */
export interface FileJson {
  /** Relative to its root, forward slashes. */
  path: string;
  /** The absolute root the path is relative to. */
  root: string;
  /** The file's role for the task, 0–1, rounded to 3 decimals: 0.8–1 it implements what the task names; 0.5–0.75 related; 0.2–0.45 indirect (docs/design.md). */
  relevance: number;
  /** high (>= 0.8), medium (>= 0.5), low (>= 0.2). */
  band: "high" | "medium" | "low";
  /** What put the file in its band (1.2). */
  role: "implements" | "related" | "indirect";
  /** The caller pinned it: handed out whatever its relevance, which is still its own (1.3). */
  pinned: boolean;
  /** The role, then the links and signals that put it there. */
  reason: string;
  /** Names it uses whose definitions are in files not in the result. */
  missing: string[];
  /** The cycle that first found the file (1-based). */
  cycle: number;
  regions: RegionJson[];
  /** The file's `file://` URI (the language server adds it for editors). */
  uri?: string;
}

/** The MCP tool `index_status`'s structured content. */
export interface IndexStatusJson {
  roots: RootStatusJson[];
  /** How the root was chosen. */
  root_source: "--root" | "client roots" | "current folder";
  version: string;
}

/** A region's lines, without its text. */
export interface LineRangeJson {
  start_line: number;
  end_line: number;
}

/** Counts of one index refresh of a root. */
export interface RefreshJson {
  /** Files in the index after it, skipped ones included. */
  files: number;
  /** Files read in this refresh. */
  indexed: number;
  unchanged: number;
  removed: number;
  skipped: Record<string, number>;
  seconds: number;
}

/** A region of a result sent back to be rendered. */
export interface RegionInJson {
  start_line: number;
  end_line: number;
  text: string;
  why?: string;
}

/** Code worth reading: a short relevant file whole, else the definitions the task names and the passages where its words meet. */
export interface RegionJson {
  /** 1-based first line. */
  start_line: number;
  /** 1-based last line, inclusive. */
  end_line: number;
  /** What the span is: `whole file`, `function foo`, `defines X`, `matched lines`, joined by `; ` when merged (1.1). */
  why: string;
  /** The lines, joined by `\n`; credentials masked unless redaction is off. */
  text: string;
}

/** What `iterativeRetrieval.reindex` answers. */
export interface ReindexJson {
  state: "starting" | "indexing" | "ready" | "error" | "no-workspace";
  files: number;
  /** Files read again. */
  reindexed: number;
  roots: ReindexRootJson[];
}

/** One root's refresh, with the root. */
export interface ReindexRootJson {
  /** Files in the index after it, skipped ones included. */
  files: number;
  /** Files read in this refresh. */
  indexed: number;
  unchanged: number;
  removed: number;
  skipped: Record<string, number>;
  seconds: number;
  root: string;
}

/** What `renderContext` answers. */
export interface RenderAnswer {
  format: "markdown" | "json" | "xml";
  text: string;
}

/** The one argument of `iterativeRetrieval.renderContext`: a task to retrieve (with the retrieve options) or a result to render, exactly one of them. */
export interface RenderParams {
  /** The most search–evaluate–refine cycles one retrieval runs. */
  maxCycles?: number | null;
  /** Token budget of the code regions handed out (about 4 characters a token). */
  budget?: number | null;
  /** The most files in one result: every file rated 0.2 or more, best first. */
  maxFiles?: number | null;
  /** Glob patterns (gitignore syntax, e.g. `src/**`): when any is given, only matching files are indexed and returned. */
  include?: string | string[] | null;
  /** Extra glob patterns never to index or return, on top of `.gitignore` and `.iterative-retrieval-ignore` (e.g. `vendor/**`). */
  exclude?: string | string[] | null;
  /** Whether tests, docs and fixtures may be part of the context; by default only when the task is about them. */
  includeTests?: boolean | null;
  /** The branch, tag or commit the branch's changes are measured from (e.g. `origin/develop`, or the feature branch this one is stacked on). Unset: the nearest of the default branch's copies (`origin/HEAD`, `upstream/HEAD`, `main`, `master`, …). */
  gitBase?: string | null;
  /** Search only this workspace folder, or a folder inside one: an absolute path or a `file://` URI; `include`/`exclude` globs are then relative to it. */
  root?: string | null;
  /** Files always handed out, marked `pinned`, with their own relevance: relative to a workspace folder, absolute inside one, or a `file://` URI; a path outside every folder is ignored (with a note), never read. */
  pinned?: string[] | null;
  /** Files never searched nor handed out: relative to a workspace folder, absolute inside one, or a `file://` URI; a path outside every folder is ignored (with a note), never read. */
  excluded?: string[] | null;
  /** Files the caller has read already: not handed out again, but still evidence for the others (hand out what is new): relative to a workspace folder, absolute inside one, or a `file://` URI; a path outside every folder is ignored (with a note), never read. */
  seen?: string[] | null;
  /** The file in the editor's focus: evidence with its own reason, never a guaranteed place: relative to a workspace folder, absolute inside one, or a `file://` URI; a path outside every folder is ignored (with a note), never read. */
  activeFile?: string | null;
  /** The lines selected in `activeFile` (1-based, inclusive): stronger evidence than the file alone. Ignored without `activeFile`. */
  selection?: SelectionJson | null;
  /** The files open in the editor (visible editors, open tabs): evidence with their own reason, never a guaranteed place: relative to a workspace folder, absolute inside one, or a `file://` URI; a path outside every folder is ignored (with a note), never read. */
  openFiles?: string[] | null;
  /** This task follows up a previous run: its learned terms (the union of its `trace[].learned`), searched from the first cycle. */
  followUp?: string[] | null;
  /** The task in plain words: a request, an issue, a stack trace (at most 200000 characters). */
  task?: string;
  /** A result that `iterativeRetrieval.retrieve` returned earlier (nothing is searched). */
  result?: ResultInJson;
  /** markdown (default), json or xml (docs/lsp.md). */
  format?: "markdown" | "json" | "xml";
}

/** A result that `retrieve` returned earlier, sent back to `renderContext`. */
export interface ResultInJson {
  task: string;
  files: FileInJson[];
  schema_version?: string;
  roots?: unknown;
  trace?: unknown[];
  stats?: unknown;
}

/** The result of one retrieval: `retrieve --json`, the language server's `retrieve`, the MCP tool's structured content. */
export interface ResultJson {
  /** Check it before reading: 1.x adds fields only. */
  schema_version: string;
  /** The task as the loop read it. */
  task: string;
  /** The roots searched. */
  roots: string[];
  files: FileJson[];
  trace: CycleTraceJson[];
  stats: StatsJson;
  /** What the run could not do as configured, and what it did instead: a workspace folder's own gitBase setting that names no commit there (that folder's branch is measured from the default branch). Empty when all went as set (1.5). */
  warnings: string[];
}

/** The one argument of `iterativeRetrieval.retrieve`. */
export interface RetrieveParams {
  /** The most search–evaluate–refine cycles one retrieval runs. */
  maxCycles?: number | null;
  /** Token budget of the code regions handed out (about 4 characters a token). */
  budget?: number | null;
  /** The most files in one result: every file rated 0.2 or more, best first. */
  maxFiles?: number | null;
  /** Glob patterns (gitignore syntax, e.g. `src/**`): when any is given, only matching files are indexed and returned. */
  include?: string | string[] | null;
  /** Extra glob patterns never to index or return, on top of `.gitignore` and `.iterative-retrieval-ignore` (e.g. `vendor/**`). */
  exclude?: string | string[] | null;
  /** Whether tests, docs and fixtures may be part of the context; by default only when the task is about them. */
  includeTests?: boolean | null;
  /** The branch, tag or commit the branch's changes are measured from (e.g. `origin/develop`, or the feature branch this one is stacked on). Unset: the nearest of the default branch's copies (`origin/HEAD`, `upstream/HEAD`, `main`, `master`, …). */
  gitBase?: string | null;
  /** Search only this workspace folder, or a folder inside one: an absolute path or a `file://` URI; `include`/`exclude` globs are then relative to it. */
  root?: string | null;
  /** Files always handed out, marked `pinned`, with their own relevance: relative to a workspace folder, absolute inside one, or a `file://` URI; a path outside every folder is ignored (with a note), never read. */
  pinned?: string[] | null;
  /** Files never searched nor handed out: relative to a workspace folder, absolute inside one, or a `file://` URI; a path outside every folder is ignored (with a note), never read. */
  excluded?: string[] | null;
  /** Files the caller has read already: not handed out again, but still evidence for the others (hand out what is new): relative to a workspace folder, absolute inside one, or a `file://` URI; a path outside every folder is ignored (with a note), never read. */
  seen?: string[] | null;
  /** The file in the editor's focus: evidence with its own reason, never a guaranteed place: relative to a workspace folder, absolute inside one, or a `file://` URI; a path outside every folder is ignored (with a note), never read. */
  activeFile?: string | null;
  /** The lines selected in `activeFile` (1-based, inclusive): stronger evidence than the file alone. Ignored without `activeFile`. */
  selection?: SelectionJson | null;
  /** The files open in the editor (visible editors, open tabs): evidence with their own reason, never a guaranteed place: relative to a workspace folder, absolute inside one, or a `file://` URI; a path outside every folder is ignored (with a note), never read. */
  openFiles?: string[] | null;
  /** This task follows up a previous run: its learned terms (the union of its `trace[].learned`), searched from the first cycle. */
  followUp?: string[] | null;
  /** The task in plain words: a request, an issue, a stack trace (at most 200000 characters). */
  task: string;
}

/** One root's index. */
export interface RootStatusJson {
  root: string;
  /** The index database's path. */
  index: string;
  /** Why the index is a temporary in-memory one (null when it is not). */
  index_problem: string | null;
  /** Text files indexed. */
  files: number;
  skipped: Record<string, number>;
  open_buffers: number;
  last_refresh: RefreshJson | null;
}

/** Lines selected in the editor, 1-based and inclusive. */
export interface SelectionJson {
  /** 1-based first line. */
  start_line: number;
  /** 1-based last line, inclusive. */
  end_line: number;
}

/** The settings in force, by their configuration keys (config.SETTINGS). */
export interface SettingsJson {
  /** The most search–evaluate–refine cycles one retrieval runs. */
  maxCycles: number;
  /** Token budget of the code regions handed out (about 4 characters a token). */
  budget: number;
  /** The most files in one result: every file rated 0.2 or more, best first. */
  maxFiles: number;
  /** Glob patterns (gitignore syntax, e.g. `src/**`): when any is given, only matching files are indexed and returned. */
  include: string[];
  /** Extra glob patterns never to index or return, on top of `.gitignore` and `.iterative-retrieval-ignore` (e.g. `vendor/**`). */
  exclude: string[];
  /** Whether tests, docs and fixtures may be part of the context; by default only when the task is about them. */
  includeTests: boolean | null;
  /** Where the index lives (one SQLite file per root). Unset: the platform's cache folder (`~/.cache/iterative-retrieval` on Linux). */
  cacheDir: string | null;
  /** Mask strings that look like credentials (private keys, access tokens, high-entropy values assigned to `password`, `secret`, `token`, `api_key`…) in everything handed out, as `«redacted: kind»`. Secret files (`.env`, keys, credential files) are never read either way. */
  redactSecrets: boolean;
  /** Weigh where the work is in git: the branch's changes against its merge-base with the default branch, staged, unstaged and untracked files, and recent commits (decaying over days). Local only; a task about something else is not pulled towards them. */
  gitSignals: boolean;
  /** The branch, tag or commit the branch's changes are measured from (e.g. `origin/develop`, or the feature branch this one is stacked on). Unset: the nearest of the default branch's copies (`origin/HEAD`, `upstream/HEAD`, `main`, `master`, …). */
  gitBase: string | null;
  /** Weigh the active file, the selection and the open files an editor sends (or `--focus`): evidence with its own reason, never a guaranteed place. */
  editorSignals: boolean;
}

/** Counts and times of one retrieval. */
export interface StatsJson {
  /** Files in the index. */
  files_indexed: number;
  /** Files read in this run. */
  files_reindexed: number;
  /** Files left out by reason: binary, too_large, unreadable, undecodable, secret, generated (a bundle, a file whose header says a tool wrote it, or an API reference's HTML page), undecodable_name. */
  skipped: Record<string, number>;
  cycles: number;
  /** Summed over cycles. */
  candidates: number;
  /** Estimated tokens of all regions. */
  tokens: number;
  budget: number;
  index_seconds: number;
  seconds: number;
}

/** What `iterativeRetrieval.status` answers. */
export interface StatusJson {
  state: "starting" | "indexing" | "ready" | "error" | "no-workspace";
  /** Why the state is `error`. */
  error: string | null;
  /** The server's version. */
  version: string;
  /** The result's schema version. */
  schema_version: string;
  /** Text files indexed, over all roots. */
  files: number;
  open_buffers: number;
  roots: RootStatusJson[];
  /** Whether the client watches files for the server. */
  watching_files: boolean;
  settings: SettingsJson;
}

/** What one cycle searched. */
export interface TraceQueryJson {
  /** Folder globs of good files, boosted. */
  patterns: string[];
  /** The task's concepts, then the words a follow-up kept or the branch lent, then learned terms. */
  keywords: string[];
  /** Globs and paths never to return. */
  excludes: string[];
  /** Symbols whose definitions this cycle looked up. */
  focus_areas: string[];
  /** Keywords a follow-up kept: the previous answer's learned terms (1.4). */
  follow_up: string[];
  /** Keywords borrowed from the branch's commit messages, when the task says it is about the work in progress (1.4). */
  from_branch: string[];
}

/** Each setting the server reads: its default and bounds (config.SETTINGS). */
export const SERVER_SETTINGS = {
  maxCycles: { default: 3, minimum: 1, maximum: 10 },
  budget: { default: 8000, minimum: 200, maximum: 1000000 },
  maxFiles: { default: 15, minimum: 1, maximum: 200 },
  include: { default: [] },
  exclude: { default: [] },
  includeTests: { default: null },
  cacheDir: { default: null },
  redactSecrets: { default: true },
  gitSignals: { default: true },
  gitBase: { default: null },
  editorSignals: { default: true },
} as const;

/** The code fence's language by file extension (render.py FENCE_LANGUAGES). */
export const FENCE_LANGUAGES: Record<string, string> = {
  ".c": "c",
  ".cc": "cpp",
  ".cjs": "javascript",
  ".cpp": "cpp",
  ".cs": "csharp",
  ".go": "go",
  ".h": "c",
  ".hpp": "cpp",
  ".java": "java",
  ".js": "javascript",
  ".json": "json",
  ".jsx": "jsx",
  ".kt": "kotlin",
  ".md": "markdown",
  ".mjs": "javascript",
  ".php": "php",
  ".py": "python",
  ".rb": "ruby",
  ".rs": "rust",
  ".scala": "scala",
  ".sh": "bash",
  ".swift": "swift",
  ".toml": "toml",
  ".ts": "typescript",
  ".tsx": "tsx",
  ".yaml": "yaml",
  ".yml": "yaml",
};
