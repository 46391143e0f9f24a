/** What a retrieve sends besides the task: the editor's files, pins, excludes, a follow-up. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { added, editorHints, learnedTerms, MAX_HINT_PATHS, removed, selectedLines, steeringArgs } from '../src/hints';
import type { CycleTrace } from '../src/protocol';

const ws = (p: string) => ({ uri: `file:///ws/${p}`, inWorkspace: true });
const outside = (uri: string) => ({ uri, inWorkspace: false });

test('a selection is sent as 1-based lines; an empty one is not sent', () => {
  assert.deepEqual(selectedLines({ startLine: 2, endLine: 8, endCharacter: 5, isEmpty: false }), { start_line: 3, end_line: 9 });
  // whole lines selected with Shift+Down end at the start of the next line, which is not selected
  assert.deepEqual(selectedLines({ startLine: 2, endLine: 8, endCharacter: 0, isEmpty: false }), { start_line: 3, end_line: 8 });
  assert.deepEqual(selectedLines({ startLine: 4, endLine: 4, endCharacter: 0, isEmpty: false }), { start_line: 5, end_line: 5 });
  assert.equal(selectedLines({ startLine: 4, endLine: 4, endCharacter: 7, isEmpty: true }), undefined);
  assert.equal(selectedLines(undefined), undefined);
});

test('the editor sends its active file, selection and open files of the workspace, each once', () => {
  const hints = editorHints({
    active: ws('src/a.ts'),
    selection: { startLine: 0, endLine: 3, endCharacter: 2, isEmpty: false },
    open: [ws('src/a.ts'), ws('src/b.ts'), outside('untitled:Untitled-1'), outside('file:///etc/hosts'), ws('src/b.ts'), ws('src/c.ts')],
  });
  assert.deepEqual(hints, {
    activeFile: 'file:///ws/src/a.ts',
    selection: { start_line: 1, end_line: 4 },
    openFiles: ['file:///ws/src/b.ts', 'file:///ws/src/c.ts'],
  });
});

test('an active file outside the workspace sends neither it nor its selection', () => {
  const hints = editorHints({ active: outside('file:///tmp/x.ts'), selection: { startLine: 0, endLine: 1, endCharacter: 1, isEmpty: false }, open: [] });
  assert.deepEqual(hints, {});
  assert.deepEqual(editorHints({ open: [] }), {});
});

test('at most 200 open files are sent', () => {
  const open = Array.from({ length: 250 }, (_, i) => ws(`f${i}.ts`));
  assert.equal(editorHints({ open }).openFiles?.length, MAX_HINT_PATHS);
});

test('pins and excludes: each once, newest last; a pin that is excluded is not sent', () => {
  assert.deepEqual(added(['a', 'b'], 'a'), ['b', 'a']);
  assert.deepEqual(removed(['a', 'b'], 'a'), ['b']);
  assert.equal(added(Array.from({ length: 200 }, (_, i) => `f${i}`), 'new').at(-1), 'new');
  assert.deepEqual(steeringArgs({ pinned: [], excluded: [] }), {});
  assert.deepEqual(steeringArgs({ pinned: ['a', 'x'], excluded: ['x'], extraPins: ['c', 'a'], followUp: ['jwt'] }), {
    pinned: ['a', 'c'],
    excluded: ['x'],
    followUp: ['jwt'],
  });
});

test('files an agent has read go as `seen`, each once and at most the server\'s cap', () => {
  assert.deepEqual(steeringArgs({ pinned: [], excluded: [], seen: ['src/a.ts', 'src/a.ts', 'src/b.ts'] }), {
    seen: ['src/a.ts', 'src/b.ts'],
  });
  const many = Array.from({ length: MAX_HINT_PATHS + 5 }, (_, i) => `f${i}`);
  assert.equal(steeringArgs({ pinned: [], excluded: [], seen: many }).seen?.length, MAX_HINT_PATHS);
  assert.deepEqual(steeringArgs({ pinned: [], excluded: [], seen: [] }), {});
});

test('the learned terms of a run are the union of its cycles', () => {
  const cycle = (learned: string[], followUp: string[] = []) => ({ learned, query: { follow_up: followUp } }) as unknown as CycleTrace;
  assert.deepEqual(learnedTerms({ trace: [cycle(['jwt', 'session']), cycle(['session', 'refresh'])] }), ['jwt', 'session', 'refresh']);
  assert.deepEqual(learnedTerms({ trace: [] }), []);
  // a follow-up of a follow-up keeps what the first kept, before what it learned itself
  assert.deepEqual(learnedTerms({ trace: [cycle(['claims'], ['jwt', 'session']), cycle(['jwt', 'expiry'], ['jwt', 'session'])] }), ['jwt', 'session', 'claims', 'expiry']);
});
