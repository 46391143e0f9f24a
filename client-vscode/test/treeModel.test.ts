/** The sidebar's model without VS Code: rows, labels, icons, targets and the trace. */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { StatusJson } from '../src/contract';
import { bandOf, isRetrievalResult, normalizeResult, parseStatus, type RetrievalResult } from '../src/protocol';
import { bandIcon, buildTree, flatten, type Node } from '../src/treeModel';

const FIXTURES = path.join(__dirname, '..', '..', 'test', 'fixtures');
const raw = JSON.parse(readFileSync(path.join(FIXTURES, 'auth-result.json'), 'utf8')) as RetrievalResult;
const result = normalizeResult(raw);

function done(r: RetrievalResult = result, excluded: string[] = []): Node[] {
  return buildTree({ kind: 'done', result: r, excluded });
}

test('an empty view has no rows, so that the welcome content shows', () => {
  assert.deepEqual(buildTree({ kind: 'empty' }), []);
});

test('a result shows the task, the ranked files in order, then the trace', () => {
  const rows = done();
  assert.deepEqual(
    rows.map((r) => `${r.contextValue}:${r.label}`),
    [
      'task:Fix the authentication token expiry bug',
      'file:tokens.ts',
      'file:auth.ts',
      'file:session-manager.ts',
      'file:jwt-utils.ts',
      'file:index.ts',
      'trace:Trace',
    ],
  );
  assert.equal(rows[0].description, '5 files · 2 cycles · 0.28 s');
});

test('a file row carries relevance, bar, folder and reason, and a band icon', () => {
  const tokens = done()[1];
  assert.ok(tokens.description?.startsWith('0.96 ▰▰▰▰▰  src/auth · has issueRefreshToken, issueAccessToken'), tokens.description);
  assert.deepEqual(tokens.icon, { id: 'circle-large-filled', color: 'charts.green' });
  assert.equal(tokens.collapse, 'collapsed');
  assert.match(tokens.tooltip ?? '', /^#1 · \*\*src\/auth\/tokens\.ts\*\*/);
  const low = done()[5];
  assert.equal(low.file?.band, 'low');
  assert.deepEqual(low.icon, bandIcon('low'));
});

test('a file expands to its regions, and a click on one targets its line range', () => {
  const tokens = done()[1];
  assert.deepEqual(
    tokens.children.map((c) => [c.label, c.contextValue, c.target]),
    [
      ['lines 1–19', 'region', { path: 'src/auth/tokens.ts', root: undefined, uri: undefined, startLine: 1, endLine: 19 }],
      ['lines 21–25', 'region', { path: 'src/auth/tokens.ts', root: undefined, uri: undefined, startLine: 21, endLine: 25 }],
    ],
  );
  assert.equal(tokens.children[0].description, "import { createHash, randomBytes } from 'crypto';");
  assert.match(tokens.children[0].tooltip ?? '', /```typescript\nimport \{ createHash/);
  assert.equal(tokens.children[1].regionIndex, 1);
  assert.deepEqual(tokens.target, { path: 'src/auth/tokens.ts', root: undefined, uri: undefined, startLine: 1, endLine: 1 });
});

test('the trace lists each cycle with keywords, learned terms, patterns, excludes and counts', () => {
  const trace = done().at(-1) as Node;
  assert.equal(trace.description, '2 cycles · 4 files >= 0.7 and no critical gap');
  assert.deepEqual(trace.children.map((c) => [c.label, c.description]), [
    ['Cycle 1', '14 candidates, 2 kept, 4 excluded, 6 learned'],
    ['Cycle 2', '14 candidates, 4 kept'],
  ]);
  const c1 = Object.fromEntries(trace.children[0].children.map((d) => [d.label, d.description]));
  assert.equal(c1.Keywords, 'authentication, token, expiry');
  assert.equal(c1.Learned, 'session, claims, jwt, refresh, access, issued');
  assert.equal(c1['Excluded this cycle'], 'src/models/user.ts, src/utils/cache.ts, src/services/notification.service.ts, .env.example');
  assert.equal(c1.Candidates, '14 candidates, 2 kept');
  const c2 = Object.fromEntries(trace.children[1].children.map((d) => [d.label, d.description]));
  assert.equal(c2.Patterns, 'src/auth/**');
  assert.equal(c2['Query excludes']?.split(', ').length, 4);
  assert.match(c2.Focus ?? '', /^JwtExpiredError, TokenPair/);
  assert.equal(c2.Stop, '4 files >= 0.7 and no critical gap');
  assert.equal(c2.Learned, undefined, 'empty lists get no row');
});

test('keywords the task did not say show where they came from: the last answer, the branch', () => {
  const r = normalizeResult(JSON.parse(JSON.stringify(result)) as RetrievalResult);
  r.trace[0].query.follow_up = ['session', 'claims'];
  r.trace[0].query.from_branch = ['refreshToken', 'rotation'];
  const c1 = Object.fromEntries((done(r).at(-1) as Node).children[0].children.map((d) => [d.label, d.description]));
  assert.equal(c1['Kept from the last answer'], 'session, claims');
  assert.equal(c1["From the branch's commits"], 'refreshToken, rotation');
  const plain = Object.fromEntries((done().at(-1) as Node).children[0].children.map((d) => [d.label, d.description]));
  assert.equal(plain['Kept from the last answer'], undefined, 'a task alone has neither row');
  assert.equal(plain["From the branch's commits"], undefined);
});

test('row ids are unique and stable across rebuilds, so expansion survives a refresh', () => {
  const ids = flatten(done()).map((n) => n.id);
  assert.equal(new Set(ids).size, ids.length);
  assert.deepEqual(flatten(done()).map((n) => n.id), ids);
});

test('a result without files says so, and the user\'s excludes show on the task row', () => {
  const rows = done({ ...result, files: [] }, ['src/auth/tokens.ts']);
  assert.equal(rows[1].label, 'No relevant files found');
  assert.match(rows[0].description ?? '', /· 1 excluded$/);
  assert.match(rows[0].tooltip ?? '', /Excluded by you: `src\/auth\/tokens\.ts`/);
});

test('a result without files says why the loop stopped, for the user to reword the task', () => {
  const why = "nothing new to learn: no file in scope says the task's words";
  const trace = [{ ...result.trace[0], stop_reason: why }];
  const rows = done({ ...result, files: [], trace });
  assert.equal(rows[1].label, 'No relevant files found');
  assert.match(String(rows[1].tooltip ?? ''), /^Stopped: nothing new to learn: no file in scope says the task's words\. Try other words/);
});

test('a pinned file is marked on its row, offers Unpin, and the task row counts the pins', () => {
  const files = result.files.map((f, i) => ({ ...f, pinned: i === 4 }));
  const rows = buildTree({ kind: 'done', result: { ...result, files }, excluded: [], pinned: ['src/index.ts'] });
  const pinned = rows[5];
  assert.equal(pinned.contextValue, 'pinnedFile');
  assert.ok(pinned.description?.startsWith('pinned · '), pinned.description);
  assert.match(pinned.tooltip ?? '', /pinned by you/);
  assert.ok(rows.slice(1, 5).every((r) => r.contextValue === 'file' && !r.description?.startsWith('pinned')));
  assert.match(rows[0].description ?? '', /· 1 pinned$/);
  assert.match(rows[0].tooltip ?? '', /Pinned by you: `src\/index\.ts`/);
});

test('running and error states show the task with a spinner or the error', () => {
  const running = buildTree({ kind: 'running', task: 'Fix it', message: 'cycle 2/3: evaluating 41 candidates' });
  assert.equal(running.length, 1);
  assert.equal(running[0].description, 'cycle 2/3: evaluating 41 candidates');
  assert.equal(running[0].icon?.id, 'loading~spin');
  const failed = buildTree({ kind: 'error', task: 'Fix it', message: 'boom' });
  assert.deepEqual(failed.map((r) => r.label), ['Fix it', 'boom']);
});

test('bands follow the engine\'s thresholds', () => {
  assert.deepEqual([0.95, 0.8, 0.79, 0.5, 0.49, 0.2, 0.19].map(bandOf), ['high', 'high', 'medium', 'medium', 'low', 'low', 'irrelevant']);
});

test('the result check refuses answers without task, files or trace', () => {
  assert.equal(isRetrievalResult(raw), true);
  assert.equal(isRetrievalResult({ task: 'x', files: [] }), false);
  assert.equal(isRetrievalResult(null), false);
  assert.equal(isRetrievalResult([1]), false);
});

test('normalizing fills missing optional fields of files and cycles', () => {
  const r = normalizeResult({
    task: 't',
    files: [{ path: 'a.ts', relevance: 0.6 }],
    trace: [{ cycle: 1, candidates: 3, kept: 1 }],
  } as unknown as RetrievalResult);
  assert.equal(r.files[0].band, 'medium');
  assert.deepEqual(r.files[0].regions, []);
  assert.deepEqual(r.files[0].missing, []);
  assert.deepEqual(r.trace[0].query.keywords, []);
  assert.deepEqual(r.roots, []);
  assert.equal(buildTree({ kind: 'done', result: r, excluded: [] })[1].collapse, 'none');
});

test("a run's warnings are rows under the task, before the files", () => {
  const warning = "git base 'release/9' is no branch, tag or commit in /w/two (the folder's gitBase setting): "
    + 'its branch was measured from the default branch instead';
  const r = normalizeResult({ ...JSON.parse(JSON.stringify(raw)), warnings: [warning] } as RetrievalResult);
  const rows = done(r);
  assert.deepEqual(rows.slice(0, 3).map((n) => `${n.contextValue}:${n.icon?.id}`),
    ['task:search', 'message:warning', 'file:circle-large-filled']);
  assert.equal(rows[1].tooltip, warning);
  assert.ok(rows[1].label.startsWith("git base 'release/9' is no branch"), rows[1].label);
  assert.deepEqual(normalizeResult({ task: 't', files: [], trace: [] } as unknown as RetrievalResult).warnings, []);
  assert.equal(done().filter((n) => n.id.startsWith('warning-')).length, 0);
});

test('the index status is read from the status answer (contract StatusJson)', () => {
  const answer: StatusJson = {
    state: 'ready',
    error: null,
    version: '0.1.0',
    schema_version: '1.2',
    files: 45,
    open_buffers: 0,
    roots: [
      { root: '/a', index: '/c/a.sqlite3', index_problem: null, files: 40, skipped: { binary: 1 }, open_buffers: 0, last_refresh: null },
      { root: '/b', index: '/c/b.sqlite3', index_problem: null, files: 5, skipped: {}, open_buffers: 0, last_refresh: { files: 5, indexed: 5, unchanged: 0, removed: 0, skipped: {}, seconds: 0.01 } },
    ],
    watching_files: true,
    settings: { maxCycles: 3, budget: 8000, maxFiles: 15, include: [], exclude: [], includeTests: null, cacheDir: null, redactSecrets: true, gitSignals: true, gitBase: null, editorSignals: true },
  };
  assert.deepEqual(
    (({ state, files, roots, version, error }) => ({ state, files, roots, version, error }))(parseStatus(answer)),
    { state: 'ready', files: 45, roots: ['/a', '/b'], version: '0.1.0', error: undefined },
  );
  assert.equal(parseStatus({ ...answer, state: 'error', error: 'indexing failed: disk full' }).error, 'indexing failed: disk full');
  // another shape is "unknown", never a crash
  assert.equal(parseStatus('nonsense').state, 'unknown');
  assert.equal(parseStatus({ index_state: 'ready', fileCount: 3 }).state, 'unknown');
  assert.equal(parseStatus({ index_state: 'ready', fileCount: 3 }).files, undefined);
});
