/**
 * The interpreters on this machine: the Python extension's selected one, and a probe that runs
 * each candidate once to learn its version, whether it has the package installed, and whether the
 * server bundled in the extension imports on it. launch.ts decides from the answers.
 */

import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { candidates, chooseLaunch, type NoServer, type ProbeResult, type ServerLaunch } from './launch';
import type { ExtensionSettings } from './serverConfig';

const PYTHON_EXTENSION_ID = 'ms-python.python';

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

/** `bundled/libs` inside the installed extension, when this build carries the server. */
export function bundledLibs(extensionPath: string): string | undefined {
  const libs = path.join(extensionPath, 'bundled', 'libs');
  return fs.existsSync(path.join(libs, 'iterative_retrieval', '__init__.py')) ? libs : undefined;
}

/**
 * Run in each candidate: its version, its own package (found, not imported, without the bundle on
 * the path), then the bundled server's imports (what `serve` needs) with the bundle first.
 */
const PROBE = `
import importlib.util, json, sys
out = {"version": list(sys.version_info[:3]), "executable": sys.executable}
spec = importlib.util.find_spec("iterative_retrieval")
out["own"] = spec.origin if spec else None
libs = sys.argv[1] if len(sys.argv) > 1 else ""
if libs and sys.version_info >= (3, 11):
    sys.path.insert(0, libs)
    sys.modules.pop("iterative_retrieval", None)
    try:
        import iterative_retrieval, pygls.lsp.server, lsprotocol.types, pathspec, rapidfuzz.fuzz
        if not iterative_retrieval.__file__.startswith(libs):
            raise ImportError("iterative_retrieval came from " + iterative_retrieval.__file__)
        out["bundled"] = iterative_retrieval.__version__
    except Exception as exc:
        out["bundledError"] = type(exc).__name__ + ": " + str(exc)
print(json.dumps(out))
`;

/** Runs the probe in `python` (one process, a second or so for the imports). */
export function probePython(python: string, libs: string | undefined, timeoutMs = 30000): Promise<ProbeResult> {
  const env = { ...process.env };
  delete env.PYTHONPATH; // "own package" means the interpreter's, not something on our PYTHONPATH
  return new Promise((resolve) => {
    // Run beside the bundle, not in it: `-c` puts the working folder first on sys.path.
    const cwd = libs ? path.dirname(libs) : undefined;
    execFile(python, ['-c', PROBE, libs ?? ''], { timeout: timeoutMs, env, cwd }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') {
        resolve({ found: false, detail: 'not found' });
        return;
      }
      try {
        const o = JSON.parse(stdout.trim().split('\n').pop() ?? '') as {
          version: number[];
          executable: string;
          own?: string | null;
          bundled?: string;
          bundledError?: string;
        };
        resolve({ found: true, version: o.version, executable: o.executable, own: o.own ?? undefined, bundled: o.bundled, bundledError: o.bundledError });
      } catch {
        // Not a Python 3, or it crashed: say what it printed.
        const why = (stderr || err?.message || stdout || 'no answer').trim().split('\n').pop() ?? '';
        resolve({ found: false, detail: `did not run the check (${why.slice(0, 200)})` });
      }
    });
  });
}

/**
 * The command line for `args` (`-m iterative_retrieval serve` or `mcp`) with these settings, or
 * why there is none.
 */
export async function resolveLaunch(
  settings: ExtensionSettings,
  args: readonly string[],
  extensionPath: string,
  resource?: vscode.Uri,
): Promise<ServerLaunch | NoServer> {
  const libs = bundledLibs(extensionPath);
  const selected = settings.pythonPath || settings.serverCommand.length ? undefined : await selectedInterpreter(resource);
  return chooseLaunch(settings.serverCommand, candidates(settings.pythonPath, selected), args, libs, (p) => probePython(p, libs), process.env.PYTHONPATH);
}
