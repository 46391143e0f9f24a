// Builds the platform-specific .vsix that brings its own server: the production bundle of the
// extension (esbuild), the server and its dependencies in bundled/libs (bundle_server.py, for
// Python 3.11 to 3.14 on that platform), then `vsce package --target`.
//
//   node scripts/package.mjs                       # this machine's target, e.g. linux-x64
//   node scripts/package.mjs --target darwin-arm64 # another one (wheels from the package index)
//
// Writes iterative-retrieval-<target>.vsix. PYTHON (default python3) runs bundle_server.py and
// needs uv (`pip install uv`).
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Windows is not among them yet (see bundle_server.py).
const TARGETS = ['linux-x64', 'linux-arm64', 'alpine-x64', 'alpine-arm64', 'darwin-x64', 'darwin-arm64'];

function hostTarget() {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform];
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  if (!os || !arch) throw new Error(`no VS Code target for ${process.platform}-${process.arch}`);
  return `${os}-${arch}`;
}

const i = process.argv.indexOf('--target');
const target = i > 0 ? process.argv[i + 1] : hostTarget();
if (!TARGETS.includes(target)) {
  console.error(`package.mjs: --target must be one of ${TARGETS.join(', ')}`);
  process.exit(2);
}
const run = (cmd, args) => execFileSync(cmd, args, { cwd: HERE, stdio: 'inherit' });
const out = `iterative-retrieval-${target}.vsix`;

run(process.execPath, [join(HERE, 'scripts/build.mjs'), '--production']);
run(process.env.PYTHON ?? 'python3', [join(HERE, 'scripts/bundle_server.py'), '--target', target]);
run(process.execPath, [join(HERE, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '--target', target, '-o', out]);
console.log(`package.mjs: ${out}`);
