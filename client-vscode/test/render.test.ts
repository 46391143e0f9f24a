/** Rendering without VS Code: bars, labels, tooltips and one region as Markdown (the context
 * handed to a chat is the server's: tests/test_render.py renders this fixture). */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { normalizeResult, type RetrievalResult } from '../src/protocol';
import {
  codeBlock,
  fenceLanguage,
  fileTooltip,
  oneLine,
  plainText,
  regionHeadline,
  regionLabel,
  regionTooltip,
  relevanceBar,
  renderRegion,
  resultSummary,
  retrieveLogLine,
} from '../src/render';

const FIXTURES = path.join(__dirname, '..', '..', 'test', 'fixtures');
const result = normalizeResult(JSON.parse(readFileSync(path.join(FIXTURES, 'auth-result.json'), 'utf8')) as RetrievalResult);

test('relevance bar fills in proportion and clamps out-of-range values', () => {
  assert.equal(relevanceBar(0), '▱▱▱▱▱');
  assert.equal(relevanceBar(1), '▰▰▰▰▰');
  assert.equal(relevanceBar(0.56), '▰▰▰▱▱');
  assert.equal(relevanceBar(0.96, 10), '▰▰▰▰▰▰▰▰▰▰');
  assert.equal(relevanceBar(2), '▰▰▰▰▰');
  assert.equal(relevanceBar(-1), '▱▱▱▱▱');
  assert.equal(relevanceBar(Number.NaN), '▱▱▱▱▱');
});

test('region labels say "line" for one line and use an en dash for ranges', () => {
  assert.equal(regionLabel({ start_line: 7, end_line: 7 }), 'line 7');
  assert.equal(regionLabel({ start_line: 12, end_line: 30 }), 'lines 12–30');
});

test('the region headline skips blanks, braces and bare comment starts', () => {
  assert.equal(regionHeadline('\n  /**\n   * Refreshes the token.\n   */\nfunction x() {}'), '* Refreshes the token.');
  assert.equal(regionHeadline('}\n\nexport function issueAccessToken(subject: TokenSubject): IssuedToken {'), 'export function issueAccessToken(subject: TokenSubject): IssuedToken {');
  assert.equal(regionHeadline('\n \n'), '');
});

test('oneLine collapses whitespace and cuts with an ellipsis', () => {
  assert.equal(oneLine('a\n  b\tc'), 'a b c');
  assert.equal(oneLine('abcdef', 4), 'abc…');
});

test('fence language follows the extension, and fences outgrow backticks in the text', () => {
  assert.equal(fenceLanguage('src/auth/tokens.ts'), 'typescript');
  assert.equal(fenceLanguage('Makefile'), '');
  assert.equal(fenceLanguage('.env'), '');
  assert.equal(codeBlock('a.md', 'x ``` y'), '````markdown\nx ``` y\n````');
  // four backticks in a region must not close the fence (render.py's fence_for does the same)
  assert.equal(codeBlock('a.md', 'a\n````\nb'), '`````markdown\na\n````\nb\n`````');
  assert.equal(fenceLanguage('scripts/build.mjs'), 'javascript');
  assert.equal(codeBlock('a.py', '1\n2\n3', 2), '```python\n1\n2\n…\n```');
});

test('plain text drops code-span backticks for one-line descriptions', () => {
  assert.equal(plainText('has `issueRefreshToken`, `IssuedToken`; matches token'), 'has issueRefreshToken, IssuedToken; matches token');
});

test('a file tooltip has the path, relevance, band, reason, missing symbols and regions', () => {
  const f = { ...result.files[0], missing: ['JwtClaims'] };
  const tip = fileTooltip(f);
  assert.match(tip, /^\*\*src\/auth\/tokens\.ts\*\*/);
  assert.match(tip, /Relevance \*\*0\.96\*\* \(high\)/);
  assert.match(tip, /has `issueRefreshToken`/);
  assert.match(tip, /Uses, defined elsewhere: `JwtClaims`/);
  assert.match(tip, /Regions: 1–19, 21–25/);
});

test('copying one region gives its place and a fenced block', () => {
  const f = result.files[0];
  assert.equal(renderRegion(f, f.regions[1]), '`src/auth/tokens.ts` lines 21–25:\n```typescript\n' + f.regions[1].text + '\n```\n');
});

test('the result summary counts files and cycles and shows the time', () => {
  assert.equal(resultSummary(result), '5 files · 2 cycles · 0.28 s');
});

test('a region tooltip says what the span is when the server tells (schema 1.1)', () => {
  const file = result.files[0];
  const region = { start_line: 3, end_line: 9, why: 'function refresh', text: 'function refresh() {}' };
  assert.match(regionTooltip(file, region), /^\*\*.+\*\*, lines 3–9 \(function refresh\)\n/);
  const { why: _why, ...older } = region;
  assert.match(regionTooltip(file, older), /^\*\*.+\*\*, lines 3–9\n/);
});

test('the output line of a retrieve gives the task\'s length, never its words', () => {
  const task = 'deploy fails\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY in the log';
  const line = retrieveLogLine({ task, maxFiles: 15, openFiles: ['src/a.ts', 'src/b.ts'], pinned: ['src/a.ts'] });
  assert.equal(line, `retrieve (a task of ${task.length} characters) with {"maxFiles":15,"openFiles":2,"pinned":["src/a.ts"]}`);
  for (const word of ['deploy', 'AWS_SECRET', 'wJalrXUtnFEMI', 'log']) {
    assert.ok(!line.includes(word), word);
  }
});
