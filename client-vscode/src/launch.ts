/**
 * Which Python runs the server, and with which copy of it: the decision, over the answers of a
 * probe (python.ts runs the real one). Pure: no `vscode` import, so it is unit-tested.
 *
 * The order: `server.command` when set, as given. Else the interpreters to try: only
 * `server.pythonPath` when set, otherwise the Python extension's interpreter, then `python3` and
 * `python` from PATH. The first that is Python 3.11+ runs the server: its own installed package
 * when it is `server.pythonPath` and has one (an explicit choice wins), else the server bundled in
 * the extension (`bundled/libs` first on PYTHONPATH).
 */

import * as path from 'node:path';

export const MIN_PYTHON: readonly [number, number] = [3, 11];

/** What the probe learnt about one interpreter. */
export type ProbeResult =
  | { found: false; detail: string }
  | {
      found: true;
      /** [major, minor, micro] */
      version: number[];
      /** sys.executable */
      executable: string;
      /** Where the interpreter's own `iterative_retrieval` is, when it has one. */
      own?: string;
      /** The bundled server's version when it imported on this interpreter. */
      bundled?: string;
      /** Why the bundled server did not import. */
      bundledError?: string;
    };

export type CandidateSource = 'server.pythonPath' | 'python-extension' | 'PATH';

export interface Candidate {
  python: string;
  source: CandidateSource;
}

export interface ServerLaunch {
  command: string;
  args: string[];
  /** Added to the server's environment (PYTHONPATH for the bundled server). */
  env: Record<string, string>;
  /** The interpreter, when the server runs on Python (for messages). */
  python?: string;
  source: 'server.command' | CandidateSource;
  /** Which copy of the server: the extension's, the interpreter's own, or the user's command. */
  server: 'bundled' | 'installed' | 'command';
  /** The server's version, when the probe learnt it. */
  version?: string;
}

/** Why no interpreter could run the server, with what each candidate said. */
export interface NoServer {
  reason: 'no-python' | 'no-package';
  tried: { python: string; source: CandidateSource; why: string }[];
}

export function versionText(v: readonly number[]): string {
  return v.join('.');
}

function newEnough(v: readonly number[]): boolean {
  return v[0] > MIN_PYTHON[0] || (v[0] === MIN_PYTHON[0] && v[1] >= MIN_PYTHON[1]);
}

/** The interpreters to try, in order, without duplicates. */
export function candidates(pythonPath: string, selected: string | undefined): Candidate[] {
  if (pythonPath) {
    return [{ python: pythonPath, source: 'server.pythonPath' }];
  }
  const out: Candidate[] = [];
  if (selected) {
    out.push({ python: selected, source: 'python-extension' });
  }
  out.push({ python: 'python3', source: 'PATH' }, { python: 'python', source: 'PATH' });
  return out;
}

/**
 * The launch for `args` (e.g. `-m iterative_retrieval serve`): the first candidate that can run
 * the server, or why none can. `probe` is asked lazily, in order; `bundledLibs` is undefined when
 * the extension was built without a bundled server.
 */
export async function chooseLaunch(
  serverCommand: readonly string[],
  cands: readonly Candidate[],
  args: readonly string[],
  bundledLibs: string | undefined,
  probe: (python: string) => Promise<ProbeResult>,
  existingPythonPath?: string,
): Promise<ServerLaunch | NoServer> {
  if (serverCommand.length) {
    const [command, ...rest] = serverCommand;
    return { command, args: rest, env: {}, source: 'server.command', server: 'command' };
  }
  const tried: NoServer['tried'] = [];
  let sawPython = false;
  for (const c of cands) {
    const p = await probe(c.python);
    if (!p.found) {
      tried.push({ ...c, why: p.detail });
      continue;
    }
    if (!newEnough(p.version)) {
      tried.push({ ...c, why: `Python ${versionText(p.version)} is older than ${versionText(MIN_PYTHON)}` });
      continue;
    }
    sawPython = true;
    if (c.source === 'server.pythonPath' && p.own) {
      return { command: c.python, args: [...args], env: {}, python: c.python, source: c.source, server: 'installed' };
    }
    if (bundledLibs && p.bundled) {
      const pythonPath = existingPythonPath ? `${bundledLibs}${path.delimiter}${existingPythonPath}` : bundledLibs;
      return {
        command: c.python,
        args: [...args],
        env: { PYTHONPATH: pythonPath },
        python: c.python,
        source: c.source,
        server: 'bundled',
        version: p.bundled,
      };
    }
    tried.push({ ...c, why: bundledLibs ? `the bundled server did not load: ${p.bundledError ?? 'unknown error'}` : 'it has no iterative_retrieval package' });
  }
  return { reason: sawPython ? 'no-package' : 'no-python', tried };
}

export function isLaunch(x: ServerLaunch | NoServer): x is ServerLaunch {
  return (x as ServerLaunch).command !== undefined;
}

/** The one message for "no Python can run the server": what was tried and what to install. */
export function noServerMessage(name: string, section: string, none: NoServer): string {
  const tried = none.tried.map((t) => `${t.python}${t.source === 'python-extension' ? ' (Python extension)' : ''}: ${t.why}`).join('; ');
  if (none.reason === 'no-python') {
    return (
      `${name} needs Python ${versionText(MIN_PYTHON)} or newer to run its server, and found none (${tried}). ` +
      `Install Python ${versionText(MIN_PYTHON)}+ (python.org, or your system's packages, e.g. "sudo apt install python3"), ` +
      `then run "Restart Server", or set "${section}.server.pythonPath" to its path.`
    );
  }
  return `${name} could not start its server on any Python (${tried}). Set "${section}.server.pythonPath" to a Python ${versionText(MIN_PYTHON)}+, or reinstall the extension.`;
}
