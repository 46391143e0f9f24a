/** The crashed-server policy: restart and say so, up to the limit, then stop and say why. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CrashPolicy, MAX_RESTARTS, WINDOW_MS } from '../src/crashPolicy';

test('a crash is restarted and the message says so', () => {
  const d = new CrashPolicy().onCrash(1000);
  assert.equal(d.restart, true);
  assert.match(d.message, /^Iterative Retrieval: the server stopped unexpectedly and was restarted \(1 of 4/);
});

test('after the limit within the window the server is not restarted again', () => {
  const p = new CrashPolicy();
  const decisions = Array.from({ length: MAX_RESTARTS + 1 }, (_, i) => p.onCrash(1000 + i * 1000));
  assert.deepEqual(decisions.map((d) => d.restart), [true, true, true, true, false]);
  assert.match(decisions[MAX_RESTARTS].message, /crashed 5 times in 3 minutes and was not restarted again.*Restart Server/);
});

test('crashes older than the window no longer count', () => {
  const p = new CrashPolicy();
  for (let i = 0; i < MAX_RESTARTS; i++) {
    p.onCrash(i * 1000);
  }
  assert.equal(p.onCrash(WINDOW_MS + 10_000).restart, true);
});

test('reset forgets past crashes', () => {
  const p = new CrashPolicy();
  for (let i = 0; i < MAX_RESTARTS; i++) {
    p.onCrash(i);
  }
  p.reset();
  assert.equal(p.onCrash(MAX_RESTARTS).restart, true);
});

test('a write error with no message count (the process died) does not stop the client, so the crash restarts it', () => {
  const p = new CrashPolicy();
  assert.equal(p.shouldShutDownOnError(undefined), false);
  assert.equal(p.shouldShutDownOnError(1), false);
  assert.equal(p.shouldShutDownOnError(3), false);
  assert.equal(p.shouldShutDownOnError(4), true);
});
