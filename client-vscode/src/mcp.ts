/**
 * Offers the retrieval MCP server (`python -m iterative_retrieval mcp --root FOLDER`, the bundled
 * server unless the settings name another) to agent mode, one per workspace folder, where VS Code has `lm.registerMcpServerDefinitionProvider`
 * (1.101+). The API is looked up at run time, since the engine range starts below it.
 */

import * as vscode from 'vscode';
import { EXTENSION_NAME, MCP_ARGS, MCP_PROVIDER_ID } from './constants';
import { isLaunch } from './launch';
import { resolveLaunch } from './python';
import { mcpFromServerCommand } from './serverConfig';
import { getSettings } from './settings';

type McpDefinition = object;

interface McpProvider {
  onDidChangeMcpServerDefinitions: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): Promise<McpDefinition[]>;
}

interface McpApi {
  registerMcpServerDefinitionProvider?: (id: string, provider: McpProvider) => vscode.Disposable;
}

type McpStdioCtor = new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string) => McpDefinition;

export function registerMcp(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  const api = vscode.lm as unknown as McpApi | undefined;
  const Stdio = (vscode as unknown as { McpStdioServerDefinition?: McpStdioCtor }).McpStdioServerDefinition;
  if (typeof api?.registerMcpServerDefinitionProvider !== 'function' || typeof Stdio !== 'function') {
    log.info(`No MCP server definition provider: this ${vscode.env.appName} (${vscode.version}) lacks the API.`);
    return;
  }
  const changed = new vscode.EventEmitter<void>();
  const provider: McpProvider = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: async () => {
      const settings = getSettings();
      if (!settings.mcpEnabled) {
        return [];
      }
      const folders = vscode.workspace.workspaceFolders ?? [];
      const packaged = (context.extension.packageJSON as { version?: unknown }).version;
      const version = typeof packaged === 'string' ? packaged : '';
      const out: McpDefinition[] = [];
      for (const f of folders) {
        // The same Python and copy of the server as the language server (server.command with
        // `mcp` in place of a trailing `serve`).
        const launch = await resolveLaunch({ ...settings, serverCommand: mcpFromServerCommand(settings.serverCommand) ?? [] }, MCP_ARGS, context.extensionPath, f.uri);
        if (!isLaunch(launch)) {
          log.warn(`No MCP server for ${f.name}: no Python can run it (see the server's message).`);
          continue;
        }
        const label = folders.length > 1 ? `${EXTENSION_NAME} (${f.name})` : EXTENSION_NAME;
        const env: Record<string, string> = { ...launch.env, ...(settings.cacheDir ? { ITERATIVE_RETRIEVAL_CACHE: settings.cacheDir } : {}) };
        out.push(new Stdio(label, launch.command, [...launch.args, '--root', f.uri.fsPath], env, version));
      }
      return out;
    },
  };
  try {
    context.subscriptions.push(
      api.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
      changed,
      vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('iterativeRetrieval')) {
          changed.fire();
        }
      }),
    );
    log.info('Registered the MCP server definition provider.');
  } catch (err) {
    log.warn(`No MCP server definition provider: ${String(err)}`);
  }
}
