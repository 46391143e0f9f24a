/** The task of an @context request: prompt, conversation and attached files. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chatTask, followups, lastTask, type Turn } from '../src/chatTask';

const ME = 'iterativeRetrieval.context';
const answered = (task: string, participant = ME): Turn[] => [
  { kind: 'request', participant, prompt: task },
  { kind: 'response', participant, task },
];

test('a first prompt is the task', () => {
  assert.deepEqual(chatTask(' fix the token expiry bug ', [], ME, []), { task: 'fix the token expiry bug', base: 'fix the token expiry bug', pinned: [], followUp: false });
  assert.equal(chatTask('  ', [], ME, []), undefined);
});

test('a follow-up refines the last task this participant answered; an empty prompt repeats it', () => {
  const history = [...answered('fix the token expiry bug'), ...answered('unrelated', 'other.participant')];
  assert.equal(lastTask(history, ME), 'fix the token expiry bug');
  const t = chatTask('the refresh path too', history, ME, []);
  assert.equal(t?.task, 'fix the token expiry bug\n\nFollow-up: the refresh path too');
  assert.equal(t?.followUp, true);
  assert.equal(chatTask('', history, ME, [])?.task, 'fix the token expiry bug');
});

test('attached files are pinned by name in the task, once each', () => {
  const t = chatTask('why do sessions expire early', [], ME, ['src/auth/session-manager.ts', 'src/auth/session-manager.ts', 'src/auth/tokens.ts']);
  assert.equal(t?.task, 'why do sessions expire early\n\nFiles: src/auth/session-manager.ts, src/auth/tokens.ts');
  assert.equal(t?.base, 'why do sessions expire early');
  assert.deepEqual(t?.pinned, ['src/auth/session-manager.ts', 'src/auth/tokens.ts']);
  assert.equal(chatTask('', [], ME, ['a.ts'])?.task, 'Explain these files\n\nFiles: a.ts');
});

test('follow-ups: the files only, and the top file', () => {
  assert.deepEqual(followups('fix it', 'auth.ts').map((f) => [f.label, f.command]), [
    ['List only the files and regions', 'files'],
    ['How is auth.ts used?', undefined],
  ]);
  assert.deepEqual(followups('', 'auth.ts'), []);
});
