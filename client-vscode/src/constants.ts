/**
 * Every identifier the extension shares with package.json or the server, defined once.
 *
 * Pure: no `vscode` import, so unit tests can load it.
 */

export const EXTENSION_NAME = 'Iterative Retrieval';
export const CONFIG_SECTION = 'iterativeRetrieval';
export const CLIENT_ID = 'iterativeRetrieval';
export const OUTPUT_CHANNEL = 'Iterative Retrieval';

/** The server's Python package. */
export const PYTHON_MODULE = 'iterative_retrieval';
export const SERVER_ARGS = ['-m', PYTHON_MODULE, 'serve'];
export const MCP_ARGS = ['-m', PYTHON_MODULE, 'mcp'];

/** Commands the extension contributes (package.json `contributes.commands`). */
export const Commands = {
  findContext: 'iterativeRetrieval.findContext',
  findContextForSelection: 'iterativeRetrieval.findContextForSelection',
  rerun: 'iterativeRetrieval.rerun',
  cancel: 'iterativeRetrieval.cancel',
  copyContext: 'iterativeRetrieval.copyContext',
  copyContextAs: 'iterativeRetrieval.copyContextAs',
  explainFile: 'iterativeRetrieval.explainFile',
  clear: 'iterativeRetrieval.clear',
  showIndexStatus: 'iterativeRetrieval.showIndexStatus',
  reindex: 'iterativeRetrieval.reindexWorkspace',
  restartServer: 'iterativeRetrieval.restartServer',
  showOutput: 'iterativeRetrieval.showOutput',
  openItem: 'iterativeRetrieval.openItem',
  copyPath: 'iterativeRetrieval.copyPath',
  copyRegion: 'iterativeRetrieval.copyRegion',
  excludeAndRerun: 'iterativeRetrieval.excludeAndRerun',
  pinAndRerun: 'iterativeRetrieval.pinAndRerun',
  unpin: 'iterativeRetrieval.unpin',
  forgetPins: 'iterativeRetrieval.forgetPinsAndExcludes',
} as const;

/**
 * Commands the language server answers through `workspace/executeCommand` (docs/lsp.md).
 * Their ids differ from the client's own: vscode-languageclient registers a VS Code command for
 * each server command, and a clash would make the client fail to start.
 */
export const ServerCommands = {
  retrieve: 'iterativeRetrieval.retrieve',
  status: 'iterativeRetrieval.status',
  reindex: 'iterativeRetrieval.reindex',
  renderContext: 'iterativeRetrieval.renderContext',
  explain: 'iterativeRetrieval.explain',
} as const;

export const VIEW_CONTAINER = 'iterativeRetrieval';
export const RESULTS_VIEW = 'iterativeRetrieval.results';

/** Context keys used in `when` clauses. */
export const ContextKeys = {
  hasResult: 'iterativeRetrieval.hasResult',
  running: 'iterativeRetrieval.running',
  /** The fsPath of each pinned file, for `resourcePath in …` menus. */
  pinnedPaths: 'iterativeRetrieval.pinnedPaths',
  /** True while anything is pinned or excluded. */
  hasPinsOrExcludes: 'iterativeRetrieval.hasPinsOrExcludes',
} as const;

/** Tree item `contextValue`s, matched by the view/item/context menus. */
export const ItemContext = {
  task: 'task',
  file: 'file',
  /** A file the user pinned (its menu offers Unpin instead of Pin). */
  pinnedFile: 'pinnedFile',
  region: 'region',
  trace: 'trace',
  cycle: 'cycle',
  detail: 'detail',
  message: 'message',
} as const;

export const CHAT_PARTICIPANT_ID = 'iterativeRetrieval.context';
export const LM_TOOL_NAME = 'iterativeRetrieval_findContext';
export const MCP_PROVIDER_ID = 'iterativeRetrieval.mcp';

/** Memento key of the recent tasks. */
export const RECENT_TASKS_KEY = 'iterativeRetrieval.recentTasks';
/** Memento keys of the files pinned and excluded in this workspace (URIs). */
export const PINNED_KEY = 'iterativeRetrieval.pinned';
export const EXCLUDED_KEY = 'iterativeRetrieval.excluded';
