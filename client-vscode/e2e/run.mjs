// End-to-end test in a real VS Code: code-server 4.100.3 with the platform .vsix installed into a
// fresh profile, driven by playwright-core in Debian's chromium. code-server runs with a PATH that
// holds only a bare `python3` (no iterative_retrieval, no pygls) and no Python setting: the
// extension must run the server it bundles. Opens a copy of examples/auth-service, runs "Find
// Context for Task…" from the palette and its keybinding, checks the sidebar (file icons, rows,
// one progress place), opens files and regions from the tree, saves the screenshot, kills the
// server process and sees the extension restart it and say so, then (unless E2E_QUICK=1) opens the
// walkthrough, excludes a file from the context menu, pins one (it stays in another task's result
// and across a reload of the window) and unpins it, pins from an editor tab's menu and unpins from
// the Explorer's, checks that server.pythonPath and
// server.command win over the bundled server, cancels a slow retrieval from the view's Cancel
// action, points the Python setting nowhere to see the one "no Python" message, and opens a
// multi-root workspace whose folders each exclude their own files. Prints
// "N passed, M failed" and exits non-zero on any failure.
//
// Environment: CODE_SERVER (binary; default: scripts/install-code-server.sh's in IR_VSCODE_CACHE),
// VSIX, BARE_PYTHON (the python3 on code-server's PATH; default /usr/bin/python3), PYTHON (has
// iterative_retrieval installed, for the settings checks), SCREENSHOT (png path), CHROMIUM;
// E2E_QUICK=1 stops after the screenshot; E2E_KEEP=1 keeps the temp folder; E2E_HEADED=1 shows
// the browser.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLIENT = resolve(HERE, '..');
const REPO = resolve(CLIENT, '..');
const CACHE = process.env.IR_VSCODE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'iterative-retrieval-vscode');
const CODE_SERVER = process.env.CODE_SERVER ?? join(CACHE, 'code-server/node_modules/.bin/code-server');
const VSIX = process.env.VSIX ?? join(CLIENT, `iterative-retrieval-${process.platform}-${process.arch}.vsix`);
const BARE_PYTHON = process.env.BARE_PYTHON ?? '/usr/bin/python3';
const SCREENSHOT = process.env.SCREENSHOT ?? join(REPO, 'docs/images/vscode-sidebar.png');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const QUICK = process.env.E2E_QUICK === '1';
const TASK = 'Fix the authentication token expiry bug';
const EXPECTED = ['tokens.ts', 'auth.ts', 'session-manager.ts', 'jwt-utils.ts'];
const PYTHON = process.env.PYTHON ?? execFileSync('python3', ['-c', 'import sys; print(sys.executable)']).toString().trim();

const results = [];
const t0 = Date.now();
const log = (msg) => console.log(`[e2e ${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

/** What the window shows when a check fails (set once the page is open): a flaky failure is
 * then diagnosable from the CI log alone, which keeps no screenshot. */
let describeWindow = async () => {};

/** Runs one named check; a failure is recorded and ends the run (later checks depend on it). */
async function check(name, fn) {
  try {
    await fn();
    results.push({ name, ok: true });
    log(`✔ ${name}`);
  } catch (err) {
    results.push({ name, ok: false, err });
    log(`✘ ${name}: ${err?.message ?? err}`);
    await describeWindow().catch((e) => log(`(could not describe the window: ${e?.message ?? e})`));
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
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer ${url} within ${ms} ms`);
}

function printLogs(dir, pattern, lines = 40) {
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

const escapeRe = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A process's environment variable, from /proc. */
function environOf(pid, name) {
  const entry = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((e) => e.startsWith(`${name}=`));
  return entry?.slice(name.length + 1);
}

/** Pids of the language servers running in folder `cwd` (the extension starts them there). */
function serverPids(cwd) {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return argv.includes('iterative_retrieval') && argv.includes('serve') && readlinkSync(`/proc/${pid}/cwd`) === cwd;
    } catch {
      return false; // gone, or not ours to read
    }
  }).map(Number);
}

async function main() {
  for (const [what, p] of [['code-server', CODE_SERVER], ['vsix', VSIX], ['chromium', CHROMIUM], ['bare python3', BARE_PYTHON]]) {
    if (!existsSync(p)) throw new Error(`${what} not found at ${p}`);
  }
  const work = mkdtempSync(join(tmpdir(), 'ir-e2e-'));
  const dirs = { data: join(work, 'data'), ext: join(work, 'ext'), cfg: join(work, 'config'), xdg: join(work, 'xdg'), profile: join(work, 'chromium') };
  Object.values(dirs).forEach((d) => mkdirSync(d, { recursive: true }));
  const ws = join(work, 'auth-service');
  cpSync(join(REPO, 'examples/auth-service'), ws, { recursive: true });
  mkdirSync(join(dirs.data, 'User'), { recursive: true });
  const settingsFile = join(dirs.data, 'User/settings.json');
  // No Python setting: the extension finds python3 on PATH and runs its bundled server.
  const baseSettings = {
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
    'typescript.tsserver.experimental.enableProjectDiagnostics': false,
  };
  writeFileSync(settingsFile, JSON.stringify(baseSettings, null, 2));
  writeFileSync(join(dirs.cfg, 'config.yaml'), 'auth: none\ncert: false\n');
  // code-server's PATH: one folder with a bare python3 in it, nothing else (node is started by
  // its full path). The project is not installed for that Python, nor are its dependencies.
  const bin = join(work, 'bin');
  mkdirSync(bin);
  symlinkSync(BARE_PYTHON, join(bin, 'python3'));
  // A fresh HOME, and VSCODE_CLI=1: without it code-server takes the extension host's PATH from
  // the user's login shell (this machine's ~/.bashrc puts pyenv's Pythons there).
  const home = join(work, 'home');
  mkdirSync(home);
  const env = { HOME: home, PATH: bin, VSCODE_CLI: '1', LANG: 'C.UTF-8', XDG_CONFIG_HOME: join(dirs.xdg, 'config'), XDG_DATA_HOME: join(dirs.xdg, 'data'), XDG_CACHE_HOME: join(dirs.xdg, 'cache') };
  const codeServer = [realpathSync(CODE_SERVER)];
  const common = ['--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--config', join(dirs.cfg, 'config.yaml'), '--extensions-dir', dirs.ext, '--user-data-dir', dirs.data];

  let server;
  let context;
  let page;
  try {
    await check('the python3 on code-server\'s PATH is bare: no iterative_retrieval, no pygls', async () => {
      for (const mod of ['iterative_retrieval', 'pygls', 'rapidfuzz']) {
        let imported = true;
        try {
          execFileSync(join(bin, 'python3'), ['-c', `import ${mod}`], { env, cwd: work, stdio: 'pipe' });
        } catch {
          imported = false;
        }
        if (imported) throw new Error(`${BARE_PYTHON} can import ${mod}: not a bare Python`);
      }
    });

    await check('the .vsix installs into a fresh code-server profile', async () => {
      const out = execFileSync(process.execPath, [...codeServer, ...common, '--install-extension', VSIX], { env, timeout: 60000 }).toString();
      if (!/successfully installed/i.test(out)) throw new Error(out);
    });

    const port = await freePort();
    server = spawn(process.execPath, [...codeServer, ...common, '--bind-addr', `127.0.0.1:${port}`, ws], { env, detached: true, stdio: 'ignore' });
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

    const quickInput = page.locator('.quick-input-widget input');
    const toast = (text) => page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
    const sidebar = page.locator('#workbench\\.parts\\.sidebar');
    const rows = sidebar.locator('.pane:has(.pane-header:has-text("Context")) .monaco-list-row');
    // The row whose label is exactly `name` (reasons mention other files' names).
    const row = (name) => rows.filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRe(name)}$`) }) }).first();
    const labels = () => rows.locator('.label-name').allInnerTexts();
    const topLabels = () => rows.and(page.locator('[aria-level="1"]')).locator('.label-name').allInnerTexts();
    describeWindow = async () => {
      const texts = (sel) => page.locator(sel).allInnerTexts().then((t) => JSON.stringify(t.map((x) => x.trim()).filter(Boolean)));
      log(`window at failure: context rows ${JSON.stringify(await labels())}`);
      log(`  tabs ${await texts('.tabs-container .tab')}, active ${await texts('.tabs-container .tab.active')}`);
      log(`  notifications ${await texts('.notification-toast .notification-list-item-message')}`);
      log(`  status bar ${await texts('.statusbar-item')}`);
    };

    /**
     * Opens the palette: F1, or Ctrl+Shift+P when a focused editor (the walkthrough's page)
     * swallowed the key, until its input shows.
     */
    async function openPalette() {
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press(attempt % 2 ? 'F1' : 'Control+Shift+P');
        try {
          await quickInput.waitFor({ state: 'visible', timeout: 15000 });
          return;
        } catch (err) {
          log(`palette did not open (attempt ${attempt})`);
          if (attempt >= 4) throw err;
        }
      }
    }

    /** Runs a command from the palette, reopening it until the command is listed. */
    async function palette(title) {
      const item = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
      for (let attempt = 1; ; attempt++) {
        await openPalette();
        await page.keyboard.type(title, { delay: 5 });
        try {
          await item.waitFor({ timeout: 4000 });
          break;
        } catch (err) {
          // The palette lists the commands known when it opens.
          log(`palette attempt ${attempt}: "${title}" not listed yet`);
          if (attempt >= 8) throw err;
          await page.keyboard.press('Escape');
          await page.waitForTimeout(1000);
        }
      }
      // The listed row itself, not the first: "Rerun" also matches "Pin This File and Rerun".
      await item.click();
    }

    /**
     * Replaces the workspace settings through the settings.json editor, as a user would
     * (code-server does not notice a settings file written behind its back). The workspace's:
     * the server settings are machine-overridable, and code-server's window is a remote one,
     * where user settings of that scope do not apply (as in Remote-SSH or a dev container).
     */
    async function editSettings(extra) {
      const file = join(ws, '.vscode', 'settings.json');
      const read = () => (existsSync(file) ? readFileSync(file, 'utf8') : '');
      await palette('Preferences: Open Workspace Settings (JSON)');
      await page.locator('.tabs-container .tab.active', { hasText: 'settings.json' }).waitFor({ timeout: 15000 });
      await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      // One line, so that the editor's auto-indent has nothing to do.
      const want = JSON.stringify(extra);
      await page.keyboard.insertText(want);
      await page.keyboard.press('Control+S');
      const end = Date.now() + 15000;
      while (JSON.stringify(JSON.parse(read() || '{}')) !== want) {
        if (Date.now() > end) throw new Error(`settings.json was not saved: ${read().slice(0, 300)}`);
        await page.waitForTimeout(200);
      }
    }

    /** Waits until the extension restarts the server after a settings change, and it is ready. */
    async function waitForRestart() {
      const t = Date.now();
      await page.locator('.statusbar-item', { hasText: /Retrieval/ }).first().waitFor({ timeout: 60000 });
      await page.locator('.statusbar-item', { hasText: /\d+ files/ }).first().waitFor({ timeout: 30000 });
      log(`server restarted after ${Date.now() - t} ms`);
    }

    async function findContext(task, { key = false } = {}) {
      if (key) {
        await page.keyboard.press('Control+Shift+Alt+R');
      } else {
        await palette('Iterative Retrieval: Find Context for Task');
      }
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Find Context for Task' }).waitFor({ timeout: 30000 });
      await page.keyboard.type(task, { delay: 5 });
      // The typed task's own row ("find context"), not a recent task's that looks the same.
      await page.locator('.quick-input-list .monaco-list-row', { hasText: task }).filter({ hasText: 'find context' }).first().waitFor({ timeout: 5000 });
      await page.keyboard.press('Enter');
    }

    await check('the activity-bar icon opens the view with its welcome button', async () => {
      const icon = page.locator('.activitybar .action-item a[aria-label^="Iterative Retrieval"]').first();
      await icon.waitFor({ timeout: 30000 });
      await icon.click();
      await sidebar.locator('.welcome-view-content .monaco-button', { hasText: 'Find Context for Task' }).waitFor({ timeout: 20000 });
    });

    await check('the palette runs "Iterative Retrieval: Find Context for Task…" and takes the task', async () => {
      await findContext(TASK);
    });

    await check('the sidebar shows the task and the ranked files tokens.ts, auth.ts, session-manager.ts, jwt-utils.ts', async () => {
      await row('jwt-utils.ts').waitFor({ timeout: 90000 });
      const shown = await labels();
      log(`rows: ${JSON.stringify(shown)}`);
      for (const name of [TASK, ...EXPECTED, 'Trace']) {
        if (!shown.includes(name)) throw new Error(`${name} not in ${JSON.stringify(shown)}`);
      }
    });

    await check('the server is the bundled one, run by the bare python3 from PATH', async () => {
      const pids = serverPids(ws);
      if (pids.length !== 1) throw new Error(`expected one server process in ${ws}, found ${JSON.stringify(pids)}`);
      const exe = readlinkSync(`/proc/${pids[0]}/exe`);
      if (exe !== realpathSync(BARE_PYTHON)) throw new Error(`server runs ${exe}, not ${realpathSync(BARE_PYTHON)}`);
      const pythonPath = environOf(pids[0], 'PYTHONPATH') ?? '';
      if (!pythonPath.startsWith(dirs.ext) || !pythonPath.split(':')[0].endsWith('/bundled/libs')) throw new Error(`PYTHONPATH ${pythonPath}`);
      log(`server ${pids[0]}: ${exe}, PYTHONPATH ${pythonPath}`);
    });

    await check('file rows carry their file: file-type icons, not band icons', async () => {
      const icon = row('tokens.ts').locator('.monaco-icon-label.file-icon');
      await icon.waitFor({ timeout: 10000 });
      const cls = await icon.getAttribute('class');
      if (!/ts-ext-file-icon/.test(cls ?? '')) throw new Error(`tokens.ts row classes: ${cls}`);
    });

    await check('a retrieval has one progress place, the view: no notification', async () => {
      const notes = await page.locator('.notifications-toasts .notification-toast', { hasText: /finding context|Iterative Retrieval/ }).count();
      if (notes) throw new Error(`${notes} notifications beside the view's progress`);
    });

    await check('the keybinding opens the task input', async () => {
      await page.locator('.monaco-workbench').click({ position: { x: 700, y: 450 } });
      await page.keyboard.press('Control+Shift+Alt+R');
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Find Context for Task' }).waitFor({ timeout: 15000 });
      await page.keyboard.press('Escape');
    });

    await check('file rows show relevance, a bar, the folder and the reason', async () => {
      const description = await row('tokens.ts').locator('.label-description').innerText();
      if (!/^\d\.\d\d [▰▱]{5}\s+src\/auth · .+/.test(description)) throw new Error(`description: ${description}`);
    });

    await check('clicking tokens.ts opens it in the editor', async () => {
      await row('tokens.ts').click();
      await page.locator('.tabs-container .tab.active', { hasText: 'tokens.ts' }).waitFor({ timeout: 15000 });
    });

    await check('rows clicked while a rerun redraws the view open their file, never "Actual command not found"', async () => {
      // Clicks across the whole redraw: the old rows, the running state, the result and VS Code's
      // debounced second redraw. A row command's arguments die with each redraw, so a click at the
      // wrong moment used to fail with that message.
      // On a loaded machine every quick click of the window may time out: it then goes on, with
      // patient clicks, until one lands (a generous bound), so the check waits on a landed click,
      // never on the window's length.
      await palette('Iterative Retrieval: Rerun');
      const end = Date.now() + 2500;
      const giveUp = Date.now() + 60000;
      let clicks = 0;
      while (Date.now() < end || (clicks === 0 && Date.now() < giveUp)) {
        const timeout = Date.now() < end ? 150 : 5000;
        if (await row('auth.ts').click({ timeout }).then(() => true, () => false)) clicks++;
        await page.waitForTimeout(40);
      }
      log(`${clicks} clicks on auth.ts during the rerun`);
      await page.locator('.tabs-container .tab.active', { hasText: 'auth.ts' }).waitFor({ timeout: 15000 });
      const lost = await page.locator('.notification-toast', { hasText: 'Actual command not found' }).count();
      if (lost) throw new Error(`${lost} "Actual command not found" notifications`);
    });

    // The first line of the region selected below: "Find Context for Selection" takes it as the task.
    let regionHead = '';
    await check('a file expands to its regions and a region opens with its lines selected', async () => {
      const file = row('session-manager.ts');
      if ((await file.getAttribute('aria-expanded')) !== 'true') {
        await file.locator('.monaco-tl-twistie').click();
      }
      const region = rows.filter({ hasText: /lines \d+–\d+/ }).first();
      await region.waitFor({ timeout: 10000 });
      regionHead = (await region.locator('.label-description').innerText()).trim();
      await region.click();
      await page.locator('.tabs-container .tab.active', { hasText: 'session-manager.ts' }).waitFor({ timeout: 15000 });
      await page.locator('.statusbar-item', { hasText: /selected/ }).first().waitFor({ timeout: 10000 });
    });

    await check('the Trace node lists the cycles with their keywords', async () => {
      await row('Trace').locator('.monaco-tl-twistie').click();
      await row('Cycle 1').waitFor({ timeout: 10000 });
      await row('Cycle 1').locator('.monaco-tl-twistie').click();
      await row('Keywords').waitFor({ timeout: 10000 });
      const kw = await row('Keywords').locator('.label-description').innerText();
      if (!/token/.test(kw)) throw new Error(`keywords: ${kw}`);
    });

    await check('the status bar shows the index state', async () => {
      await page.locator('.statusbar-item', { hasText: /\d+ files/ }).first().waitFor({ timeout: 20000 });
    });

    await check('a screenshot of the sidebar is saved', async () => {
      // Widen the sidebar so that the reasons show.
      const box = await sidebar.boundingBox();
      if (box) {
        const x = box.x + box.width - 1;
        await page.mouse.move(x, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(x + 300, box.y + box.height / 2, { steps: 8 });
        await page.mouse.up();
      }
      await page.mouse.move(1200, 700);
      await page.waitForTimeout(300);
      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
      if (statSync(SCREENSHOT).size < 10000) throw new Error('screenshot too small');
      log(`screenshot: ${SCREENSHOT}`);
    });

    await check('a killed server is restarted, the user is told, and the index comes back', async () => {
      const before = serverPids(ws);
      if (before.length !== 1) throw new Error(`expected one server process in ${ws}, found ${JSON.stringify(before)}`);
      process.kill(before[0], 'SIGKILL');
      // Edit at once, as a user typing would: the didChange write to the dead process fails
      // (EPIPE), and that must not stop the client before it sees the exit and restarts.
      await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
      await page.keyboard.type('x');
      await page.keyboard.press('Control+Z');
      await toast('was restarted').waitFor({ timeout: 30000 });
      // One message, not the client library's error toasts about the broken pipe.
      const noise = await page.locator('.notifications-toasts .notification-toast', { hasText: /erroring|failed/ }).count();
      if (noise) throw new Error(`${noise} error toasts beside the restart message`);
      await page.locator('.statusbar-item', { hasText: /\d+ files/ }).first().waitFor({ timeout: 60000 });
      const after = serverPids(ws);
      if (after.length !== 1 || after[0] === before[0]) throw new Error(`servers before ${before}, after ${after}`);
      await palette('Notifications: Clear All Notifications');
    });

    if (!QUICK) {
      await check('"Copy Context as Markdown" puts the server-rendered context on the clipboard', async () => {
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${port}` });
        await palette('Iterative Retrieval: Copy Context as Markdown');
        let text = '';
        for (let i = 0; i < 50 && !text.startsWith('## Context for:'); i++) {
          await page.waitForTimeout(200);
          text = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
        }
        if (!text.startsWith(`## Context for: ${TASK}`)) throw new Error(`clipboard: ${text.slice(0, 200)}`);
        if (!/\| 1 \| \d\.\d\d \(high\) \| `src\/auth\//.test(text) || !text.includes('```typescript')) throw new Error(`markdown: ${text.slice(0, 400)}`);
      });

      await check('"Copy Context As…" XML documents puts the server\'s XML on the clipboard', async () => {
        await palette('Iterative Retrieval: Copy Context As…');
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'XML documents' }).first().click();
        let text = '';
        for (let i = 0; i < 50 && !text.startsWith('<documents'); i++) {
          await page.waitForTimeout(200);
          text = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
        }
        if (!text.startsWith(`<documents task="${TASK}">`)) throw new Error(`clipboard: ${text.slice(0, 200)}`);
        if (!/<document index="1" path="src\/auth\/[^"]+" relevance="\d\.\d\d" band="high"/.test(text) || !text.includes('<source lines="')) throw new Error(`xml: ${text.slice(0, 400)}`);
      });

      await check('the chat participant, language-model tool and MCP provider register (or say why not)', async () => {
        const logs = readdirSync(join(dirs.data, 'logs'), { recursive: true }).map(String).filter((f) => f.endsWith('Iterative Retrieval.log'));
        const text = logs.map((f) => readFileSync(join(dirs.data, 'logs', f), 'utf8')).join('\n');
        for (const what of ['chat participant @context', 'language-model tool findContext', 'MCP server definition provider']) {
          if (!new RegExp(`(Registered the|No) ${escapeRe(what)}`).test(text)) throw new Error(`no word about the ${what} in the log`);
        }
      });

      await check('the context menu\'s "Exclude This File and Rerun" drops the file', async () => {
        // The lowest-ranked file: the last file row before the Trace (region rows say "lines …").
        const shown = await labels();
        const victim = shown.slice(1, shown.indexOf('Trace')).filter((l) => !/^lines? \d/.test(l)).at(-1);
        await row(victim).click({ button: 'right' });
        // Point at the item first, as a hand does: code-server 4.100's menu ignored a click sent
        // the instant it opened (the menu stayed open with the item highlighted).
        const item = page.locator('.context-view .action-label', { hasText: 'Exclude This File and Rerun' });
        await item.hover();
        await page.waitForTimeout(300);
        await item.click();
        await row(TASK).locator('.label-description', { hasText: '1 excluded' }).waitFor({ timeout: 60000 });
        const now = await labels();
        log(`excluded ${victim}: ${JSON.stringify(now)}`);
        if (now.includes(victim)) throw new Error(`${victim} still shown: ${JSON.stringify(now)}`);
        if (!now.some((n) => EXPECTED.includes(n))) throw new Error(`no file left: ${JSON.stringify(now)}`);
      });

      await check('"Find Context for Selection" uses the editor\'s selection as the task', async () => {
        // The region opened above is still selected in session-manager.ts.
        await palette('Iterative Retrieval: Find Context for Selection');
        if (!regionHead) throw new Error('no region was selected above');
        const task = rows.filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRe(regionHead)}`) }) }).first();
        await task.waitFor({ timeout: 30000 });
        await task.locator('.label-description', { hasText: /\d+ files? ·/ }).waitFor({ timeout: 60000 });
        log(`rows: ${JSON.stringify(await labels())}`);
      });

      await check('"Explain This File for the Last Task" says how the editor\'s file ranks', async () => {
        await findContext(TASK);
        await row(TASK).locator('.label-description', { hasText: /\d+ files? ·/ }).waitFor({ timeout: 60000 });
        await row('tokens.ts').click();
        await page.locator('.tabs-container .tab.active', { hasText: 'tokens.ts' }).waitFor({ timeout: 15000 });
        await palette('Iterative Retrieval: Explain This File for the Last Task');
        await toast(/src\/auth\/tokens\.ts — \d\.\d\d \(high\), rank \d+ of \d+/).waitFor({ timeout: 60000 });
        await palette('Notifications: Clear All Notifications');
      });

      /** Runs a row's context-menu item, pointing at it first as a hand does (see the exclude check). */
      /**
       * Picks `title` from `target`'s context menu with the keyboard (a click may come while the
       * menu still ignores the mouse), then waits until the menu is closed.
       */
      async function contextMenu(target, title) {
        await target.click({ button: 'right' });
        const menu = page.locator('.context-view .monaco-menu');
        await menu.locator('.action-label', { hasText: title }).waitFor({ timeout: 15000 });
        const focused = menu.locator('.action-item.focused', { hasText: title });
        const items = await menu.locator('.action-item:not(.disabled) .action-label:not(.separator)').count();
        for (let i = 0; i <= items && !(await focused.count()); i++) {
          await page.keyboard.press('ArrowDown');
        }
        if (!(await focused.count())) throw new Error(`"${title}" never got the focus in the menu`);
        await page.keyboard.press('Enter');
        await menu.waitFor({ state: 'hidden', timeout: 15000 });
      }
      const rowMenu = (name, title) => contextMenu(row(name), title);
      const descriptionOf = (name) => row(name).locator('.label-description').innerText();
      let pinnedFile;

      await check('the context menu\'s "Pin This File and Rerun" keeps the file in every result, marked pinned', async () => {
        // The lowest-ranked file of the result: pinned, then a task about something else.
        const shown = await labels();
        pinnedFile = shown.slice(1, shown.indexOf('Trace')).filter((l) => !/^lines? \d/.test(l)).at(-1);
        await rowMenu(pinnedFile, 'Pin This File and Rerun');
        await row(TASK).locator('.label-description', { hasText: '1 pinned' }).waitFor({ timeout: 60000 });
        const marked = await descriptionOf(pinnedFile);
        if (!marked.startsWith('pinned · ')) throw new Error(`${pinnedFile}: ${marked}`);
        // The pinned file in the editor: the palette offers Unpin for it (its `when` needs the
        // file among the pinned paths the extension publishes as a context key).
        await row(pinnedFile).click();
        await page.locator('.tabs-container .tab.active', { hasText: pinnedFile }).waitFor({ timeout: 15000 });
        await openPalette();
        await page.keyboard.type('Iterative Retrieval: Unpin', { delay: 5 });
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Unpin This File' }).first().waitFor({ timeout: 10000 });
        await page.keyboard.press('Escape');
        const other = 'Add a discount coupon to orders';
        await findContext(other);
        await row(other).locator('.label-description', { hasText: '1 pinned' }).waitFor({ timeout: 60000 });
        const still = await descriptionOf(pinnedFile);
        log(`pinned ${pinnedFile}; for "${other}": ${JSON.stringify(await labels())}`);
        if (!still.startsWith('pinned · ')) throw new Error(`${pinnedFile} for "${other}": ${still}`);
      });

      await check('the pin survives a reload of the window, and "Unpin This File" drops it', async () => {
        await page.reload();
        await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
        // the extension is back when its server reports the index in the status bar
        await page.locator('.statusbar-item', { hasText: /\d+ files/ }).first().waitFor({ timeout: 60000 });
        await findContext(TASK);
        await row(TASK).locator('.label-description', { hasText: '1 pinned' }).waitFor({ timeout: 90000 });
        if (!(await descriptionOf(pinnedFile)).startsWith('pinned · ')) throw new Error(`${pinnedFile} not pinned after the reload`);
        await rowMenu(pinnedFile, 'Unpin This File');
        // the rerun's result: its summary, and no pin any more
        await row(TASK).locator('.label-description', { hasText: /\d+ files? ·/, hasNotText: 'pinned' }).waitFor({ timeout: 60000 });
        if ((await rows.locator('.label-description', { hasText: /^pinned · / }).count()) !== 0) throw new Error('a row is still marked pinned');
      });

      await check('an editor tab\'s context menu pins its file, the Explorer\'s unpins it', async () => {
        await row(pinnedFile).click();
        const tab = page.locator('.tabs-container .tab.active', { hasText: pinnedFile });
        await tab.waitFor({ timeout: 15000 });
        await contextMenu(tab, 'Pin This File and Rerun');
        await row(TASK).locator('.label-description', { hasText: '1 pinned' }).waitFor({ timeout: 60000 });
        if (!(await descriptionOf(pinnedFile)).startsWith('pinned · ')) throw new Error(`${pinnedFile} not pinned from its tab`);
        // The Explorer reveals the active editor's file; its row's menu offers Unpin now.
        await palette('View: Show Explorer');
        const entry = page.locator('.explorer-folders-view .monaco-list-row.selected', { hasText: pinnedFile });
        await entry.waitFor({ timeout: 20000 });
        await contextMenu(entry, 'Unpin This File');
        // Back to the view by its focus command (a click on its icon would hide it if the
        // Unpin's rerun had already brought it back).
        await palette('Iterative Retrieval: Focus on Context View');
        await row(TASK).locator('.label-description', { hasText: /\d+ files? ·/, hasNotText: 'pinned' }).waitFor({ timeout: 60000 });
        if ((await rows.locator('.label-description', { hasText: /^pinned · / }).count()) !== 0) throw new Error('a row is still marked pinned after the Explorer\'s Unpin');
        await palette('View: Close Editor');
      });

      await check('the walkthrough opens with its steps', async () => {
        await palette('Welcome: Open Walkthrough');
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with Iterative Retrieval' }).first().click();
        for (const step of ['Find context for a task', 'Browse the ranked files', 'Hand the context to a chat', 'The Python that runs the server']) {
          await page.locator('.gettingStartedContainer', { hasText: step }).first().waitFor({ timeout: 20000 });
        }
        await palette('View: Close Editor');
      });

      await check('server.pythonPath with the package installed wins over the bundled server', async () => {
        const old = serverPids(ws);
        await editSettings({ 'iterativeRetrieval.server.pythonPath': PYTHON });
        await waitForRestart();
        const pids = serverPids(ws).filter((p) => !old.includes(p));
        if (pids.length !== 1) throw new Error(`new servers: ${JSON.stringify(pids)}`);
        const exe = readlinkSync(`/proc/${pids[0]}/exe`);
        const pythonPath = environOf(pids[0], 'PYTHONPATH') ?? '';
        if (exe !== realpathSync(PYTHON) || pythonPath.includes('bundled/libs')) throw new Error(`server ${exe}, PYTHONPATH ${pythonPath}`);
      });

      await check('cancelling a slow retrieval from the view\'s Cancel action stops it and keeps the last result', async () => {
        // A server that sleeps at every progress step (the server's test hook), through
        // server.command, which wins over the bundled server.
        await editSettings({ 'iterativeRetrieval.server.command': ['/usr/bin/env', 'ITERATIVE_RETRIEVAL_LSP_SLOW=4', PYTHON, '-m', 'iterative_retrieval', 'serve'] });
        await waitForRestart();
        const pids = serverPids(ws);
        if (pids.length !== 1 || (environOf(pids[0], 'ITERATIVE_RETRIEVAL_LSP_SLOW') ?? '') !== '4') throw new Error(`server.command did not start the server: ${JSON.stringify(pids)}`);
        const before = await topLabels();
        if (before.length < 3) throw new Error(`no result to keep: ${JSON.stringify(before)}`);
        await findContext('Where are invoices computed', { key: true });
        await row('Where are invoices computed').waitFor({ timeout: 10000 });
        const cancel = page.locator('.action-label[aria-label^="Cancel Retrieval"]').first();
        await cancel.waitFor({ timeout: 10000 });
        if (await toast('finding context').count()) throw new Error('a notification beside the view\'s progress');
        await cancel.click();
        await cancel.waitFor({ state: 'detached', timeout: 10000 });
        // The same result: the task, its files and the Trace, in order (the top-level rows; an
        // expanded row's children come back a moment later, or not, as VS Code re-fetches them).
        let after = [];
        for (let i = 0; i < 25 && JSON.stringify(after) !== JSON.stringify(before); i++) {
          await page.waitForTimeout(200);
          after = await topLabels();
        }
        if (JSON.stringify(after) !== JSON.stringify(before)) throw new Error(`before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`);
        // The server keeps serving: the index status answers.
        await palette('Iterative Retrieval: Show Index Status');
        await toast(/Index ready · \d+ files/).waitFor({ timeout: 30000 });
        await palette('Notifications: Clear All Notifications');
      });

      await check('no suitable Python gives one message that says what to install, with "Open Settings"', async () => {
        await editSettings({ 'iterativeRetrieval.server.pythonPath': join(work, 'no-such-python') });
        const note = toast('needs Python 3.11 or newer');
        await note.waitFor({ timeout: 30000 });
        const text = await note.innerText();
        if (!/no-such-python: not found/.test(text) || !/Install Python 3\.11\+/.test(text)) throw new Error(`message: ${text}`);
        const errors = await page.locator('.notifications-toasts .notification-toast', { hasText: 'Iterative Retrieval' }).count();
        if (errors !== 1) throw new Error(`${errors} messages, not one`);
        await note.locator('.monaco-button', { hasText: 'Open Settings' }).click();
        await page.locator('.tabs-container .tab.active', { hasText: 'Settings' }).waitFor({ timeout: 15000 });
      });

      await check('in a multi-root workspace each folder\'s own exclude applies to that folder only', async () => {
        // Two folders, each with its own `exclude` (a resource setting): the auth service's
        // drops its jwt-utils.ts and, were it applied to the other folder, the API's
        // throttle.ts; the API's drops its router-setup.ts and, were it applied to the other
        // folder, the auth service's src/auth files.
        const mr = join(work, 'multi-root');
        const folders = { 'auth-service': ['src/auth/jwt-utils.ts', 'src/middleware/throttle.ts'], 'rate-limit-api': ['src/auth/**', 'src/router-setup.ts'] };
        for (const [name, exclude] of Object.entries(folders)) {
          cpSync(join(REPO, 'examples', name), join(mr, name), { recursive: true });
          mkdirSync(join(mr, name, '.vscode'), { recursive: true });
          writeFileSync(join(mr, name, '.vscode', 'settings.json'), JSON.stringify({ 'iterativeRetrieval.exclude': exclude }));
        }
        const file = join(mr, 'two.code-workspace');
        writeFileSync(file, JSON.stringify({ folders: Object.keys(folders).map((path) => ({ path })) }));
        // The window is ready when the extension, activated by its view, has its server index
        // the two folders (its status bar item counts their files). code-server sometimes gives
        // the first window opened on a workspace, right after another window, an extension host
        // with no folders in it (no extension sees one: git's and npm's do not activate either);
        // the extension then says "no folder is open", correctly, and the window is loaded again.
        const indexed = page.locator('.statusbar-item', { hasText: /[1-9]\d* files/ }).first();
        for (let attempt = 1; ; attempt++) {
          await page.goto(`http://127.0.0.1:${port}/?workspace=${encodeURIComponent(file)}`);
          await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
          await palette('Iterative Retrieval: Focus on Context View');
          try {
            await indexed.waitFor({ timeout: 45000 });
            break;
          } catch (err) {
            log(`multi-root window ${attempt}: the extension's server indexed no folder`);
            if (attempt >= 3) throw err;
          }
        }
        const expect = async (present, absent) => {
          await row(present[0]).waitFor({ timeout: 90000 });
          const shown = await labels();
          log(`rows: ${JSON.stringify(shown)}`);
          const wrong = [...present.filter((n) => !shown.includes(n)), ...absent.filter((n) => shown.includes(n))];
          if (wrong.length) throw new Error(`${JSON.stringify(wrong)} wrong in ${JSON.stringify(shown)}`);
        };
        await findContext('Add rate limiting to API endpoints');
        await expect(['throttle.ts', 'rate-limits.ts'], ['router-setup.ts']);
        await findContext(TASK);
        await expect(['tokens.ts', 'session-manager.ts'], ['jwt-utils.ts']);
      });
    }
  } catch (err) {
    if (!results.some((r) => !r.ok)) results.push({ name: 'setup', ok: false, err });
    console.error(err?.stack ?? String(err));
    if (page) {
      const shot = join(work, 'failure.png');
      await page.screenshot({ path: shot }).catch(() => undefined);
      console.error(`failure screenshot: ${shot}`);
    }
    printLogs(join(dirs.data, 'logs'), /(Iterative Retrieval|remoteexthost)\.log$/);
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
