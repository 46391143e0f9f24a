/**
 * Which command starts the server: the `server.command` setting, else a Python interpreter
 * (`server.pythonPath`, else the Python extension's selected interpreter, else `python3`) with
 * `-m iterative_retrieval serve`; and a quick check that this Python has the package.
 */

import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import { PYTHON_MODULE, SERVER_ARGS } from './constants';
import type { ExtensionSettings } from './serverConfig';

const PYTHON_EXTENSION_ID = 'ms-python.python';

export type PythonSource = 'setting' | 'python-extension' | 'default';

export interface ServerLaunch {
  command: string;
  args: string[];
  /** The interpreter, when the server is started through Python (for checks and messages). */
  python?: string;
  /** Where the command came from, for the log and messages. */
  source: 'server.command' | PythonSource;
}

/** The parts of the Python extension's API used here (its `environments` API). */
interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
    resolveEnvironment(env: { path: string } | string): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
}

async function pythonApi(): Promise<PythonExtensionApi | undefined> {
  const ext = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
  if (!ext) {
    return undefined;
  }
  try {
    return ext.isActive ? ext.exports : await ext.activate();
  } catch {
    return undefined;
  }
}

/** The Python extension's selected interpreter for `resource`, when that extension is present. */
export async function selectedInterpreter(resource?: vscode.Uri): Promise<string | undefined> {
  const envs = (await pythonApi())?.environments;
  if (!envs) {
    return undefined;
  }
  try {
    const active = envs.getActiveEnvironmentPath(resource);
    if (!active) {
      return undefined;
    }
    const resolved = await envs.resolveEnvironment(active);
    return resolved?.executable.uri?.fsPath ?? active.path;
  } catch {
    return undefined;
  }
}

/** Fires when the user selects another interpreter in the Python extension. */
export async function onDidChangeInterpreter(listener: () => void): Promise<vscode.Disposable | undefined> {
  const envs = (await pythonApi())?.environments;
  return envs?.onDidChangeActiveEnvironmentPath(() => listener());
}

/** The Python that runs the server and MCP server (without checking it). */
export async function findPython(settings: ExtensionSettings, resource?: vscode.Uri): Promise<{ python: string; source: PythonSource }> {
  if (settings.pythonPath) {
    return { python: settings.pythonPath, source: 'setting' };
  }
  const selected = await selectedInterpreter(resource);
  if (selected) {
    return { python: selected, source: 'python-extension' };
  }
  return { python: 'python3', source: 'default' };
}

/** The command line of the language server. */
export async function serverLaunch(settings: ExtensionSettings, resource?: vscode.Uri): Promise<ServerLaunch> {
  if (settings.serverCommand.length) {
    const [command, ...args] = settings.serverCommand;
    return { command, args, source: 'server.command' };
  }
  const { python, source } = await findPython(settings, resource);
  return { command: python, args: [...SERVER_ARGS], python, source };
}

export type PythonCheck =
  | { ok: true; version: string }
  | { ok: false; reason: 'no-python' | 'no-package' | 'error'; detail: string };

/** Runs `python -c "import iterative_retrieval"` to tell a missing Python from a missing package. */
export function checkPython(python: string, timeoutMs = 20000): Promise<PythonCheck> {
  const code = `import ${PYTHON_MODULE} as m; print(getattr(m, '__version__', '?'))`;
  return new Promise((resolve) => {
    execFile(python, ['-c', code], { timeout: timeoutMs }, (err, stdout, stderr) => {
      if (!err) {
        resolve({ ok: true, version: stdout.trim() });
      } else if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        resolve({ ok: false, reason: 'no-python', detail: `${python} was not found` });
      } else if (/No module named/.test(stderr)) {
        resolve({ ok: false, reason: 'no-package', detail: stderr.trim().split('\n').pop() ?? '' });
      } else {
        resolve({ ok: false, reason: 'error', detail: (stderr || err.message).trim() });
      }
    });
  });
}
