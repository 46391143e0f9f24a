/** Which Python runs the server and with which copy of it, over recorded probe answers. */

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { candidates, chooseLaunch, isLaunch, type NoServer, noServerMessage, type ProbeResult, type ServerLaunch } from '../src/launch';

const ARGS = ['-m', 'iterative_retrieval', 'serve'];
const LIBS = '/ext/bundled/libs';

const py = (version: number[], extra: Partial<Extract<ProbeResult, { found: true }>> = {}): ProbeResult => ({
  found: true,
  version,
  executable: '/usr/bin/python3',
  ...extra,
});
const missing: ProbeResult = { found: false, detail: 'not found' };

/** A probe over a table of answers that records the order it was asked in. */
function probe(table: Record<string, ProbeResult>): { asked: string[]; fn: (p: string) => Promise<ProbeResult> } {
  const asked: string[] = [];
  return { asked, fn: (p) => (asked.push(p), Promise.resolve(table[p] ?? missing)) };
}

test('candidates: only server.pythonPath when set, else the Python extension then python3, python', () => {
  assert.deepEqual(candidates('/opt/py/bin/python', '/sel/python').map((c) => c.python), ['/opt/py/bin/python']);
  assert.deepEqual(candidates('', '/sel/python').map((c) => [c.python, c.source]), [
    ['/sel/python', 'python-extension'],
    ['python3', 'PATH'],
    ['python', 'PATH'],
  ]);
  assert.deepEqual(candidates('', undefined).map((c) => c.python), ['python3', 'python']);
});

test('server.command wins over everything and is not probed', async () => {
  const p = probe({});
  const l = await chooseLaunch(['iterative-retrieval', 'serve'], candidates('/x/python', undefined), ARGS, LIBS, p.fn);
  assert.deepEqual(l, { command: 'iterative-retrieval', args: ['serve'], env: {}, source: 'server.command', server: 'command' });
  assert.deepEqual(p.asked, []);
});

test('a bare python3 on PATH runs the bundled server, with the bundle first on PYTHONPATH', async () => {
  const p = probe({ python3: py([3, 11, 2], { bundled: '0.1.0' }) });
  const l = (await chooseLaunch([], candidates('', undefined), ARGS, LIBS, p.fn, '/user/lib')) as ServerLaunch;
  assert.equal(l.command, 'python3');
  assert.deepEqual(l.args, ARGS);
  assert.deepEqual(l.env, { PYTHONPATH: `${LIBS}${path.delimiter}/user/lib` });
  assert.equal(l.server, 'bundled');
  assert.equal(l.version, '0.1.0');
});

test('server.pythonPath with the package installed runs that package; without it, the bundle on it', async () => {
  const own = await chooseLaunch([], candidates('/venv/bin/python', undefined), ARGS, LIBS, probe({ '/venv/bin/python': py([3, 12, 1], { own: '/venv/lib/iterative_retrieval/__init__.py', bundled: '0.1.0' }) }).fn);
  assert.equal((own as ServerLaunch).server, 'installed');
  assert.deepEqual((own as ServerLaunch).env, {});
  const bare = await chooseLaunch([], candidates('/venv/bin/python', undefined), ARGS, LIBS, probe({ '/venv/bin/python': py([3, 12, 1], { bundled: '0.1.0' }) }).fn);
  assert.equal((bare as ServerLaunch).server, 'bundled');
  assert.equal((bare as ServerLaunch).source, 'server.pythonPath');
});

test("the Python extension's interpreter runs the bundle even when it has the package (versions stay paired)", async () => {
  const l = await chooseLaunch([], candidates('', '/sel/python'), ARGS, LIBS, probe({ '/sel/python': py([3, 13, 0], { own: '/sel/site/iterative_retrieval/__init__.py', bundled: '0.1.0' }) }).fn);
  assert.equal((l as ServerLaunch).server, 'bundled');
  assert.equal((l as ServerLaunch).command, '/sel/python');
});

test('a python3 older than 3.11 is passed over for a newer python', async () => {
  const p = probe({ python3: py([3, 9, 7]), python: py([3, 11, 4], { bundled: '0.1.0' }) });
  const l = await chooseLaunch([], candidates('', undefined), ARGS, LIBS, p.fn);
  assert.equal((l as ServerLaunch).command, 'python');
  assert.deepEqual(p.asked, ['python3', 'python']);
});

test('no Python 3.11+ anywhere: one reason, every candidate and why, and what to install', async () => {
  const none = (await chooseLaunch([], candidates('', undefined), ARGS, LIBS, probe({ python3: py([3, 9, 7]) }).fn)) as NoServer;
  assert.equal(isLaunch(none), false);
  assert.equal(none.reason, 'no-python');
  assert.deepEqual(none.tried.map((t) => [t.python, t.why]), [
    ['python3', 'Python 3.9.7 is older than 3.11'],
    ['python', 'not found'],
  ]);
  const text = noServerMessage('Iterative Retrieval', 'iterativeRetrieval', none);
  assert.match(text, /^Iterative Retrieval needs Python 3\.11 or newer to run its server, and found none \(python3: Python 3\.9\.7 is older than 3\.11; python: not found\)\./);
  assert.match(text, /Install Python 3\.11\+/);
  assert.match(text, /iterativeRetrieval\.server\.pythonPath/);
});

test('a set server.pythonPath that does not exist is not replaced by another Python', async () => {
  const p = probe({ python3: py([3, 11, 2], { bundled: '0.1.0' }) });
  const none = (await chooseLaunch([], candidates('/nope/python', undefined), ARGS, LIBS, p.fn)) as NoServer;
  assert.equal(none.reason, 'no-python');
  assert.deepEqual(p.asked, ['/nope/python']);
  assert.match(noServerMessage('IR', 'ir', none), /\/nope\/python: not found/);
});

test('a build without the bundle needs a Python that has the package', async () => {
  const none = (await chooseLaunch([], candidates('', undefined), ARGS, undefined, probe({ python3: py([3, 11, 2]) }).fn)) as NoServer;
  assert.equal(none.reason, 'no-package');
  assert.match(noServerMessage('IR', 'ir', none), /python3: it has no iterative_retrieval package/);
  const broken = (await chooseLaunch([], candidates('', undefined), ARGS, LIBS, probe({ python3: py([3, 11, 2], { bundledError: 'ImportError: libc' }) }).fn)) as NoServer;
  assert.match(broken.tried[0].why, /the bundled server did not load: ImportError: libc/);
});
