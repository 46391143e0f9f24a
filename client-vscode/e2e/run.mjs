// End-to-end test in a real VS Code: code-server 4.100.3 with the .vsix installed, driven by
// playwright-core in Debian's chromium. Opens a copy of examples/auth-service, runs "Find Context
// for Task…" from the palette, checks the sidebar's files, opens one from the tree, and saves a
// screenshot. Prints "N passed, M failed" and exits non-zero on any failure.
//
// Environment: CODE_SERVER (binary), VSIX, PYTHON (has iterative_retrieval), SCREENSHOT (png
// path), E2E_KEEP=1 keeps the temp folder; E2E_HEADED=1 shows the browser.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLIENT = resolve(HERE, '..');
const REPO = resolve(CLIENT, '..');
const CODE_SERVER = process.env.CODE_SERVER ?? join(CLIENT, '.cache/code-server/node_modules/.bin/code-server');
const VSIX = process.env.VSIX ?? join(CLIENT, 'iterative-retrieval.vsix');
const SCREENSHOT = process.env.SCREENSHOT ?? join(REPO, 'docs/images/vscode-sidebar.png');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const TASK = 'Fix the authentication token expiry bug';
const EXPECTED = ['tokens.ts', 'auth.ts', 'session-manager.ts', 'jwt-utils.ts'];
const PYTHON = process.env.PYTHON ?? execFileSync('python3', ['-c', 'import sys; print(sys.executable)']).toString().trim();

const results = [];
let page;
const t0 = Date.now();
const log = (msg) => console.log(`[e2e ${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

async function check(name, fn) {
  try {
    await fn();
    results.push({ name, ok: true });
    log(`✔ ${name}`);
  } catch (err) {
    results.push({ name, ok: false, err });
    log(`✘ ${name}: ${err?.message ?? err}`);
    throw err;
  }
}

function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}

async function waitHealthy(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer ${url} within ${ms} ms`);
}

function tailFiles(dir, pattern, lines = 40) {
  if (!existsSync(dir)) return;
  const walk = (d) => readdirSync(d).flatMap((n) => {
    const p = join(d, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
  for (const f of walk(dir).filter((p) => pattern.test(p))) {
    const text = readFileSync(f, 'utf8').trim().split('\n').slice(-lines).join('\n');
    if (text) console.log(`----- ${f}\n${text}`);
  }
}

async function main() {
  for (const [what, p] of [['code-server', CODE_SERVER], ['vsix', VSIX], ['chromium', CHROMIUM]]) {
    if (!existsSync(p)) throw new Error(`${what} not found at ${p}`);
  }
  const work = mkdtempSync(join(tmpdir(), 'ir-e2e-'));
  const dirs = { data: join(work, 'data'), ext: join(work, 'ext'), cfg: join(work, 'config'), xdg: join(work, 'xdg'), profile: join(work, 'chromium') };
  Object.values(dirs).forEach((d) => mkdirSync(d, { recursive: true }));
  const ws = join(work, 'auth-service');
  cpSync(join(REPO, 'examples/auth-service'), ws, { recursive: true });
  mkdirSync(join(dirs.data, 'User'), { recursive: true });
  writeFileSync(join(dirs.data, 'User/settings.json'), JSON.stringify({
    'iterativeRetrieval.server.pythonPath': PYTHON,
    'iterativeRetrieval.cacheDir': join(work, 'index-cache'),
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.ignoreRecommendations': true,
    'extensions.autoCheckUpdates': false,
    'update.mode': 'none',
    'chat.commandCenter.enabled': false,
    'workbench.colorTheme': 'Default Dark Modern',
    'window.commandCenter': false,
  }, null, 2));
  writeFileSync(join(dirs.cfg, 'config.yaml'), 'auth: none\ncert: false\n');
  const env = { ...process.env, XDG_CONFIG_HOME: join(dirs.xdg, 'config'), XDG_DATA_HOME: join(dirs.xdg, 'data'), XDG_CACHE_HOME: join(dirs.xdg, 'cache') };
  const common = ['--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--config', join(dirs.cfg, 'config.yaml'), '--extensions-dir', dirs.ext, '--user-data-dir', dirs.data];

  let server;
  let context;
  try {
    await check('the .vsix installs into code-server', async () => {
      const out = execFileSync(CODE_SERVER, [...common, '--install-extension', VSIX], { env, timeout: 60000 }).toString();
      if (!/successfully installed/i.test(out)) throw new Error(out);
    });

    const port = await freePort();
    const csLog = join(work, 'code-server.log');
    server = spawn(CODE_SERVER, [...common, '--bind-addr', `127.0.0.1:${port}`, ws], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    server.stdout.on('data', (d) => chunks.push(d));
    server.stderr.on('data', (d) => chunks.push(d));
    server.on('exit', () => writeFileSync(csLog, Buffer.concat(chunks)));
    await waitHealthy(`http://127.0.0.1:${port}/healthz`, 30000);
    log(`code-server up on ${port}`);

    context = await chromium.launchPersistentContext(dirs.profile, {
      executablePath: CHROMIUM,
      headless: process.env.E2E_HEADED !== '1',
      viewport: { width: 1440, height: 900 },
      deviceScaleFactor: 1,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
    await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    // Let the workbench settle (explorer restored, extensions registered).
    await page.waitForSelector('.part.activitybar', { timeout: 30000 });

    await check('the palette runs "Iterative Retrieval: Find Context for Task…" and takes the task', async () => {
      // The extension's contributions are in once its activity-bar entry shows.
      await page.locator('.activitybar .action-item a[aria-label^="Iterative Retrieval"]').first().waitFor({ timeout: 30000 });
      log('activity-bar entry present');
      const input = page.locator('.quick-input-widget input');
      const command = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Iterative Retrieval: Find Context for Task' }).first();
      // The palette lists the commands known when it opens: reopen it until ours is there.
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: 15000 });
        await page.keyboard.type('Iterative Retrieval: Find Context for Task', { delay: 5 });
        try {
          await command.waitFor({ timeout: 5000 });
          break;
        } catch (err) {
          log(`palette attempt ${attempt}: command not listed yet`);
          if (attempt >= 8) throw err;
          await page.keyboard.press('Escape');
          await page.waitForTimeout(1000);
        }
      }
      await page.keyboard.press('Enter');
      // Our own quick pick: a new title and placeholder.
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Find Context for Task' }).waitFor({ timeout: 30000 });
      await page.keyboard.type(TASK, { delay: 5 });
      await page.locator('.quick-input-list .monaco-list-row', { hasText: TASK }).first().waitFor({ timeout: 5000 });
      await page.keyboard.press('Enter');
    });

    const sidebar = page.locator('#workbench\\.parts\\.sidebar');
    const rows = sidebar.locator('.pane:has(.pane-header:has-text("Context")) .monaco-list-row');
    const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // The row whose label is exactly `name` (reasons mention other files' names).
    const row = (name) => rows.filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escape(name)}$`) }) }).first();
    await check('the sidebar shows the task and the ranked files tokens.ts, auth.ts, session-manager.ts, jwt-utils.ts', async () => {
      await sidebar.locator('.monaco-list-row', { hasText: 'jwt-utils.ts' }).first().waitFor({ timeout: 90000 });
      const labels = await rows.locator('.label-name').allInnerTexts();
      log(`rows: ${JSON.stringify(labels)}`);
      for (const name of EXPECTED) {
        if (!labels.includes(name)) throw new Error(`${name} not in ${JSON.stringify(labels)}`);
      }
      if (!labels.includes(TASK)) throw new Error('the task row is missing');
      if (!labels.includes('Trace')) throw new Error('the Trace row is missing');
    });

    await check('file rows show relevance, a bar and the reason', async () => {
      const description = await row('tokens.ts').locator('.label-description').innerText();
      if (!/^\d\.\d\d [▰▱]{5}\s+src\/auth · .+/.test(description)) throw new Error(`description: ${description}`);
    });

    await check('clicking tokens.ts opens it in the editor', async () => {
      await row('tokens.ts').click();
      await page.locator('.tabs-container .tab.active', { hasText: 'tokens.ts' }).waitFor({ timeout: 15000 });
    });

    await check('a file expands to its regions and a region opens with its lines selected', async () => {
      const file = row('session-manager.ts');
      if ((await file.getAttribute('aria-expanded')) !== 'true') {
        await file.locator('.monaco-tl-twistie').click();
      }
      const region = rows.filter({ hasText: /lines \d+–\d+/ }).first();
      await region.waitFor({ timeout: 10000 });
      await region.click();
      await page.locator('.tabs-container .tab.active', { hasText: 'session-manager.ts' }).waitFor({ timeout: 15000 });
      await page.locator('.statusbar-item', { hasText: /selected/ }).first().waitFor({ timeout: 10000 });
    });

    await check('the Trace node lists the cycles with their keywords', async () => {
      const trace = row('Trace');
      await trace.locator('.monaco-tl-twistie').click();
      const cycle = row('Cycle 1');
      await cycle.waitFor({ timeout: 10000 });
      await cycle.locator('.monaco-tl-twistie').click();
      await row('Keywords').waitFor({ timeout: 10000 });
      const kw = await row('Keywords').locator('.label-description').innerText();
      if (!/token/.test(kw)) throw new Error(`keywords: ${kw}`);
    });

    await check('the status bar shows the index state', async () => {
      await page.locator('.statusbar-item', { hasText: /\d+ files/ }).first().waitFor({ timeout: 20000 });
    });

    await check('a screenshot of the sidebar is saved', async () => {
      // Widen the sidebar so that the reasons show, and hover a file for its tooltip.
      const box = await sidebar.boundingBox();
      if (box) {
        const x = box.x + box.width - 1;
        await page.mouse.move(x, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(x + 300, box.y + box.height / 2, { steps: 8 });
        await page.mouse.up();
      }
      await row('auth.ts').locator('.label-name').hover();
      await page.locator('.monaco-hover, .workbench-hover', { hasText: 'Relevance' }).first().waitFor({ timeout: 5000 }).catch(() => log('no hover shown'));
      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
      if (statSync(SCREENSHOT).size < 10000) throw new Error('screenshot too small');
      log(`screenshot: ${SCREENSHOT}`);
    });
  } catch (err) {
    if (!results.some((r) => !r.ok)) results.push({ name: 'setup', ok: false, err });
    console.error(err?.stack ?? String(err));
    if (page) {
      const shot = join(work, 'failure.png');
      await page.screenshot({ path: shot }).catch(() => undefined);
      console.error(`failure screenshot: ${shot}`);
    }
    tailFiles(join(dirs.data, 'logs'), /(exthost|Iterative Retrieval|remoteagent).*\.log$/);
    process.env.E2E_KEEP = '1';
  } finally {
    await context?.close().catch(() => undefined);
    if (server?.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    if (process.env.E2E_KEEP === '1') {
      console.log(`kept ${work}`);
    } else {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log(`e2e: ${passed} passed, ${failed} failed (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
  process.exit(failed ? 1 : 0);
}

main();
