/** The manifest follows VS Code's conventions (package.json is read as vsce reads it). */

/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access,
   @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument --
   the manifest is untyped JSON, read here as vsce reads it */

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Commands, LM_TOOL_NAME, RESULTS_VIEW } from '../src/constants';

const ROOT = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const contributes = manifest.contributes;
const commandIds = new Set<string>(contributes.commands.map((c: { command: string }) => c.command));

test('an icon, a repository and a license, and packaging without the flags that skip them', () => {
  assert.ok(fs.statSync(path.join(ROOT, manifest.icon)).size > 1000);
  assert.match(manifest.repository.url, /^https:\/\//);
  assert.equal(manifest.license, 'MIT');
  assert.ok(fs.existsSync(path.join(ROOT, 'LICENSE')));
  const packaging = fs.readFileSync(path.join(ROOT, 'scripts', 'package.mjs'), 'utf8') + manifest.scripts.package;
  assert.doesNotMatch(packaging, /--skip-license|--allow-missing-repository/);
});

test('no activation events VS Code generates itself, no dead MCP contribution', () => {
  assert.equal(manifest.activationEvents, undefined);
  assert.equal(contributes.modelContextServerCollections, undefined);
  assert.ok(contributes.mcpServerDefinitionProviders.length === 1);
});

test('Find Context for Task… has a keybinding', () => {
  const kb = contributes.keybindings.find((k: { command: string }) => k.command === Commands.findContext);
  assert.ok(kb && kb.key && kb.mac);
});

test('the walkthrough steps have their media and complete on real commands, views and settings', () => {
  const [walk] = contributes.walkthroughs;
  assert.ok(walk.steps.length >= 3);
  const settings = new Set(Object.keys(contributes.configuration.properties));
  for (const step of walk.steps) {
    assert.ok(fs.existsSync(path.join(ROOT, step.media.markdown)), step.media.markdown);
    for (const ev of step.completionEvents as string[]) {
      const [kind, id] = ev.split(':');
      if (kind === 'onCommand') assert.ok(commandIds.has(id), ev);
      else if (kind === 'onView') assert.equal(id, RESULTS_VIEW);
      else if (kind === 'onSettingChanged') assert.ok(settings.has(id), ev);
      else assert.fail(`unknown completion event ${ev}`);
    }
    for (const m of (step.description as string).matchAll(/\(command:([\w.]+)/g)) {
      assert.ok(commandIds.has(m[1]) || m[1] === `${RESULTS_VIEW}.focus` || m[1].startsWith('workbench.'), m[1]);
    }
  }
});

test('the language-model tool has a when clause and says when not to use it and what it returns', () => {
  const tool = contributes.languageModelTools.find((t: { name: string }) => t.name === LM_TOOL_NAME);
  assert.ok(tool.when);
  assert.match(tool.modelDescription, /Do not use it/);
  assert.match(tool.modelDescription, /Returns Markdown/);
});

test('machine settings are machine-overridable; include, exclude and gitBase are per folder', () => {
  const p = contributes.configuration.properties;
  for (const k of ['server.command', 'server.pythonPath', 'cacheDir']) {
    assert.equal(p[`iterativeRetrieval.${k}`].scope, 'machine-overridable', k);
  }
  for (const k of ['include', 'exclude', 'gitBase']) {
    assert.equal(p[`iterativeRetrieval.${k}`].scope, 'resource', k);
  }
});

test('the .vsix carries the bundled server and the walkthrough', () => {
  const ignore = fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8').split('\n');
  for (const need of ['!bundled/**', '!walkthrough/**', '!resources/**', '!LICENSE']) {
    assert.ok(ignore.includes(need), need);
  }
});
