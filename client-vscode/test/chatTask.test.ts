/** The task of an @context request: prompt, conversation and attached files. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chatTask, followups, lastRun, lastTask, type Turn } from '../src/chatTask';

const ME = 'iterativeRetrieval.context';
const answered = (task: string, participant = ME): Turn[] => [
  { kind: 'request', participant, prompt: task },
  { kind: 'response', participant, task },
];

test('a first prompt is the task', () => {
  assert.deepEqual(chatTask(' fix the token expiry bug ', [], ME, []), { task: 'fix the token expiry bug', pinned: [], learned: [], followUp: false });
  assert.equal(chatTask('  ', [], ME, []), undefined);
});

test('a follow-up refines the last run this participant answered: its task, learned terms and pins', () => {
  const history: Turn[] = [
    { kind: 'request', participant: ME, prompt: 'fix the token expiry bug' },
    { kind: 'response', participant: ME, task: 'fix the token expiry bug', learned: ['jwt', 'session'], pinned: ['file:///ws/src/a.ts'] },
    ...answered('unrelated', 'other.participant'),
  ];
  assert.equal(lastTask(history, ME), 'fix the token expiry bug');
  assert.deepEqual(lastRun(history, ME), { task: 'fix the token expiry bug', learned: ['jwt', 'session'], pinned: ['file:///ws/src/a.ts'] });
  const t = chatTask('the refresh path too', history, ME, ['file:///ws/src/b.ts']);
  assert.deepEqual(t, {
    task: 'fix the token expiry bug\n\nFollow-up: the refresh path too',
    pinned: ['file:///ws/src/a.ts', 'file:///ws/src/b.ts'],
    learned: ['jwt', 'session'],
    followUp: true,
  });
  // an empty prompt repeats the last run with its pins, and learns afresh
  assert.deepEqual(chatTask('', history, ME, []), { task: 'fix the token expiry bug', pinned: ['file:///ws/src/a.ts'], learned: [], followUp: false });
  // an answer of an older client, without the new metadata
  assert.deepEqual(chatTask('more', answered('old task'), ME, [])?.learned, []);
});

test('attached files are pinned for the request, once each', () => {
  const t = chatTask('why do sessions expire early', [], ME, ['file:///ws/src/auth/session-manager.ts', 'file:///ws/src/auth/session-manager.ts', 'file:///ws/src/auth/tokens.ts']);
  assert.equal(t?.task, 'why do sessions expire early');
  assert.deepEqual(t?.pinned, ['file:///ws/src/auth/session-manager.ts', 'file:///ws/src/auth/tokens.ts']);
  assert.deepEqual(chatTask('', [], ME, ['file:///ws/a.ts']), { task: 'Explain these files', pinned: ['file:///ws/a.ts'], learned: [], followUp: false });
});

test('follow-ups: the files only, and the top file', () => {
  assert.deepEqual(followups('fix it', 'auth.ts').map((f) => [f.label, f.command]), [
    ['List only the files and regions', 'files'],
    ['How is auth.ts used?', undefined],
  ]);
  assert.deepEqual(followups('', 'auth.ts'), []);
});
