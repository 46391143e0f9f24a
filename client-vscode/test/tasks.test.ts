/** Task sources, settings, paths and progress text without VS Code. */

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { resolveResultPath } from '../src/paths';
import { isIndexingProgress, parseCounts } from '../src/progressText';
import { DEFAULTS, mcpFromServerCommand, readSettings, toServerConfig } from '../src/serverConfig';
import { rememberTask, selectionTask } from '../src/tasks';

test('recent tasks keep the newest first, without duplicates, up to the limit', () => {
  assert.deepEqual(rememberTask([], 'a', 3), ['a']);
  assert.deepEqual(rememberTask(['a', 'b', 'c'], ' b ', 3), ['b', 'a', 'c']);
  assert.deepEqual(rememberTask(['a', 'b', 'c'], 'd', 3), ['d', 'a', 'b']);
  assert.deepEqual(rememberTask(['a'], '  ', 3), ['a']);
  assert.deepEqual(rememberTask(['a'], 'b', 0), []);
});

test('a selection becomes the task, with where it was selected', () => {
  const t = selectionTask({ selection: 'TypeError: token.exp is undefined', diagnostics: [], relativePath: 'src/auth/auth.ts', line: 41 });
  assert.equal(t, 'TypeError: token.exp is undefined\n\n(selected in src/auth/auth.ts:42)');
});

test('without a selection, the diagnostics at the cursor become the task, errors first', () => {
  const t = selectionTask({
    selection: '',
    relativePath: 'src/auth/tokens.ts',
    line: 9,
    diagnostics: [
      { message: 'unused variable', severity: 'warning', line: 9, source: 'eslint' },
      { message: "Type 'string' is not assignable to type 'number'.", severity: 'error', source: 'ts', code: 2322, line: 9 },
    ],
  });
  assert.equal(t, "Fix: error ts 2322 at src/auth/tokens.ts:10: Type 'string' is not assignable to type 'number'.\nwarning eslint at src/auth/tokens.ts:10: unused variable");
});

test('with neither, the word at the cursor is used; with nothing at all there is no task', () => {
  assert.equal(selectionTask({ selection: ' ', diagnostics: [], relativePath: 'a.ts', line: 0, word: 'refreshToken' }), 'refreshToken in a.ts:1');
  assert.equal(selectionTask({ selection: '', diagnostics: [], relativePath: 'a.ts', line: 0 }), undefined);
});

test('settings fall back to defaults for bad values and map to the server\'s configuration', () => {
  const values: Record<string, unknown> = {
    'server.command': ['iterative-retrieval', 'serve'],
    maxCycles: 99,
    budget: 4000,
    exclude: ['vendor/**', 3, ''],
    includeTests: 'always',
    cacheDir: ' /tmp/ir ',
  };
  const s = readSettings((k) => values[k]);
  assert.equal(s.maxCycles, DEFAULTS.maxCycles);
  assert.equal(s.budget, 4000);
  assert.deepEqual(s.exclude, ['vendor/**']);
  assert.deepEqual(toServerConfig(s), { maxCycles: 3, budget: 4000, maxFiles: 15, exclude: ['vendor/**'], include: [], includeTests: true, cacheDir: '/tmp/ir', redactSecrets: true, gitSignals: true, gitBase: null, editorSignals: true });
  assert.deepEqual(toServerConfig(readSettings(() => undefined)), { maxCycles: 3, budget: 8000, maxFiles: 15, exclude: [], include: [], includeTests: null, cacheDir: null, redactSecrets: true, gitSignals: true, gitBase: null, editorSignals: true });
  assert.equal(toServerConfig(readSettings((k) => (k === 'includeTests' ? 'never' : undefined))).includeTests, false);
  assert.equal(toServerConfig(readSettings((k) => (k === 'redactSecrets' ? false : undefined))).redactSecrets, false);
  assert.equal(toServerConfig(readSettings((k) => (k === 'redactSecrets' ? 'no' : undefined))).redactSecrets, true);
  assert.equal(toServerConfig(readSettings((k) => (k === 'gitSignals' ? false : undefined))).gitSignals, false);
  assert.equal(toServerConfig(readSettings((k) => (k === 'editorSignals' ? false : undefined))).editorSignals, false);
  assert.equal(toServerConfig(readSettings((k) => (k === 'gitBase' ? ' origin/develop ' : undefined))).gitBase, 'origin/develop');
});

test('the MCP command is derived from a server command that ends in "serve"', () => {
  assert.deepEqual(mcpFromServerCommand(['iterative-retrieval', 'serve']), ['iterative-retrieval', 'mcp']);
  assert.deepEqual(mcpFromServerCommand(['/py', '-m', 'iterative_retrieval', 'serve']), ['/py', '-m', 'iterative_retrieval', 'mcp']);
  assert.equal(mcpFromServerCommand(['my-wrapper']), undefined);
});

test('result paths resolve under their root, the only root, or the root that has them', () => {
  const a = path.join(path.sep, 'a');
  const b = path.join(path.sep, 'b');
  assert.equal(resolveResultPath('src/x.ts', undefined, [a], () => false), path.join(a, 'src/x.ts'));
  assert.equal(resolveResultPath('src/x.ts', b, [a, b], () => false), path.join(b, 'src/x.ts'));
  assert.equal(resolveResultPath('src/x.ts', undefined, [a, b], (p) => p.startsWith(b)), path.join(b, 'src/x.ts'));
  assert.equal(resolveResultPath('src/x.ts', undefined, [a, b], () => false), path.join(a, 'src/x.ts'));
  assert.equal(resolveResultPath('src/x.ts', undefined, [], () => true), undefined);
});

test('progress messages give counts, and indexing is told apart from retrieval', () => {
  assert.deepEqual(parseCounts('indexing 12/45 files'), { done: 12, total: 45 });
  assert.deepEqual(parseCounts('12 of 45'), { done: 12, total: 45 });
  assert.equal(parseCounts('cycle two'), undefined);
  assert.equal(isIndexingProgress('Indexing auth-service'), true);
  assert.equal(isIndexingProgress('Iterative Retrieval', 'cycle 2/3: evaluating 41 candidates'), false);
  assert.equal(isIndexingProgress(undefined, 'index 3/9'), true);
});
