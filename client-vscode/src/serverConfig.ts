/**
 * The configuration the server reads (section "iterativeRetrieval" of docs/lsp.md), made from
 * the extension's settings. The server settings' defaults and bounds are the server's own
 * table (config.SETTINGS, generated into contract.ts); package.json's are written from it too.
 * Pure: no `vscode` import.
 */

import { SERVER_SETTINGS as S, type SettingsJson } from './contract';

export type IncludeTests = 'auto' | 'always' | 'never';

/** The settings as the extension keeps them. */
export interface ExtensionSettings {
  serverCommand: string[];
  pythonPath: string;
  maxCycles: number;
  budget: number;
  maxFiles: number;
  exclude: string[];
  include: string[];
  includeTests: IncludeTests;
  cacheDir: string;
  redactSecrets: boolean;
  gitSignals: boolean;
  gitBase: string;
  editorSignals: boolean;
  historySize: number;
  mcpEnabled: boolean;
}

/** What the server gets in `initializationOptions` and `workspace/configuration`: the
 * section as the server reads it (includeTests null: only when the task is about tests;
 * cacheDir null: the server's default cache folder). */
export type ServerConfig = SettingsJson;

export const DEFAULTS: ExtensionSettings = {
  serverCommand: [],
  pythonPath: '',
  maxCycles: S.maxCycles.default,
  budget: S.budget.default,
  maxFiles: S.maxFiles.default,
  exclude: [...S.exclude.default],
  include: [...S.include.default],
  includeTests: 'auto',
  cacheDir: '',
  redactSecrets: S.redactSecrets.default,
  gitSignals: S.gitSignals.default,
  gitBase: '',
  editorSignals: S.editorSignals.default,
  historySize: 10,
  mcpEnabled: true,
};

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
}

function intIn(v: unknown, lo: number, hi: number, fallback: number): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi ? v : fallback;
}

/**
 * Settings from a `get(key)` function (VS Code's WorkspaceConfiguration for the section), with
 * each bad value replaced by its default instead of failing.
 */
export function readSettings(get: (key: string) => unknown): ExtensionSettings {
  const tests = get('includeTests');
  return {
    serverCommand: strings(get('server.command')),
    pythonPath: typeof get('server.pythonPath') === 'string' ? (get('server.pythonPath') as string).trim() : '',
    maxCycles: intIn(get('maxCycles'), S.maxCycles.minimum, S.maxCycles.maximum, DEFAULTS.maxCycles),
    budget: intIn(get('budget'), S.budget.minimum, S.budget.maximum, DEFAULTS.budget),
    maxFiles: intIn(get('maxFiles'), S.maxFiles.minimum, S.maxFiles.maximum, DEFAULTS.maxFiles),
    exclude: strings(get('exclude')),
    include: strings(get('include')),
    includeTests: tests === 'always' || tests === 'never' ? tests : 'auto',
    cacheDir: typeof get('cacheDir') === 'string' ? (get('cacheDir') as string).trim() : '',
    redactSecrets: get('redactSecrets') !== false,
    gitSignals: get('gitSignals') !== false,
    gitBase: typeof get('gitBase') === 'string' ? (get('gitBase') as string).trim() : '',
    editorSignals: get('editorSignals') !== false,
    historySize: intIn(get('history.size'), 0, 50, DEFAULTS.historySize),
    mcpEnabled: get('mcp.enabled') !== false,
  };
}

/** The server's view of the settings. */
export function toServerConfig(s: ExtensionSettings): ServerConfig {
  return {
    maxCycles: s.maxCycles,
    budget: s.budget,
    maxFiles: s.maxFiles,
    exclude: s.exclude,
    include: s.include,
    includeTests: s.includeTests === 'auto' ? null : s.includeTests === 'always',
    cacheDir: s.cacheDir || null,
    redactSecrets: s.redactSecrets,
    gitSignals: s.gitSignals,
    gitBase: s.gitBase || null,
    editorSignals: s.editorSignals,
  };
}

/** Settings whose change needs a new server process rather than a configuration update. */
export const RESTART_KEYS = ['server.command', 'server.pythonPath', 'cacheDir'];

/**
 * The MCP server's command from a `server.command` setting: the same program with `mcp` in
 * place of a trailing `serve` (undefined when the setting has no such shape).
 */
export function mcpFromServerCommand(serverCommand: readonly string[]): string[] | undefined {
  if (serverCommand.length >= 2 && serverCommand[serverCommand.length - 1] === 'serve') {
    return [...serverCommand.slice(0, -1), 'mcp'];
  }
  return undefined;
}
