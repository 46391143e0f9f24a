#!/usr/bin/env bash
# CI for the VS Code extension: npm deps, strict type-check, lint, unit tests, the platform .vsix with
# the server bundled (scripts/package.mjs), then the end-to-end test in code-server 4.100.3 +
# Debian chromium (installed on first use and cached), where PATH has only a bare python3.
#
#   bash client-vscode/scripts/ci.sh                # everything (~2 min warm, ~5.5 min cold)
#   IR_E2E=quick bash client-vscode/scripts/ci.sh   # e2e up to the screenshot only (~1 min warm)
#   IR_E2E=off   bash client-vscode/scripts/ci.sh   # no e2e (no code-server/chromium needed)
#   bash client-vscode/scripts/ci.sh prepare        # only the installs (npm deps, code-server,
#                                                   # chromium): .ci/run starts them early
#
# Environment: IR_VSCODE_CACHE (default ~/.cache/iterative-retrieval-vscode) holds code-server and
# the e2e artifacts, outside the work tree so a fresh clone reuses them; PYTHON is the interpreter
# with the iterative_retrieval package and uv (default: python3's sys.executable): it bundles the
# server and runs it where the e2e sets server.pythonPath or server.command; BARE_PYTHON is the
# python3 the e2e puts alone on code-server's PATH (default /usr/bin/python3); SCREENSHOT is where the
# e2e saves its screenshot (default: the cache's artifacts folder; the README's picture is
# docs/images/vscode-sidebar.png, refreshed by `npm run e2e`).
# Exits non-zero on any failure; the last line is "N passed, M failed[, K skipped]".
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${IR_VSCODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/iterative-retrieval-vscode}"
E2E_MODE="${IR_E2E:-full}"
PREPARE=$([ "${1:-}" = "prepare" ] && echo 1 || echo 0)
ARTIFACTS="$CACHE/artifacts"
mkdir -p "$CACHE" "$ARTIFACTS"
cd "$HERE"

passed=0
failed=0
skipped=0
start=$(date +%s)
step() { printf '\n== %s (%ss)\n' "$1" "$(( $(date +%s) - start ))"; }
finish() {
  printf '\nclient-vscode ci: %ss, artifacts in %s\n' "$(( $(date +%s) - start ))" "$ARTIFACTS"
  if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
  else
    echo "$passed passed, $failed failed"
  fi
  [ "$failed" -eq 0 ] && exit 0 || exit 1
}
# A stage that is not a test runner counts as one check.
stage() {
  local name="$1"; shift
  if "$@"; then
    passed=$((passed + 1))
  else
    echo "FAILED: $name" >&2
    failed=$((failed + 1))
    finish
  fi
}

step "npm dependencies"
# node_modules is kept in the cache per package-lock.json, so a fresh clone copies it (seconds)
# instead of running npm ci (about a minute).
LOCK_HASH="$(sha256sum package-lock.json | cut -c1-16)"
NM_CACHE="$CACHE/node_modules-$LOCK_HASH"
if [ -f node_modules/.ci-lock-hash ] && [ "$(cat node_modules/.ci-lock-hash)" = "$LOCK_HASH" ]; then
  echo "node_modules up to date"
elif [ -f "$NM_CACHE/.ci-lock-hash" ]; then
  rm -rf node_modules
  cp -a "$NM_CACHE" node_modules
  echo "node_modules copied from $NM_CACHE"
else
  stage "npm ci" npm ci --prefer-offline --no-audit --no-fund --loglevel=error
  echo "$LOCK_HASH" > node_modules/.ci-lock-hash
  rm -rf "$CACHE"/node_modules-*
  cp -a node_modules "$NM_CACHE"
fi

if [ "$PREPARE" = 1 ]; then
  if [ "$E2E_MODE" != "off" ]; then
    step "code-server 4.100.3 + chromium (cached in $CACHE/code-server)"
    stage "install code-server" bash scripts/install-code-server.sh "$CACHE/code-server"
  fi
  finish
fi

step "type-check (tsc --strict --noEmit)"
stage "type-check" npx --no-install tsc -p . --noEmit

step "lint (eslint, typescript-eslint)"
stage "lint" npx --no-install eslint --max-warnings 0 .

step "unit tests (node --test)"
unit_log="$ARTIFACTS/unit.log"
npm test 2>&1 | tee "$unit_log"
unit_rc=${PIPESTATUS[0]}
unit_pass=$(sed -n 's/^ℹ pass \([0-9]*\)$/\1/p' "$unit_log" | tail -1)
unit_fail=$(sed -n 's/^ℹ fail \([0-9]*\)$/\1/p' "$unit_log" | tail -1)
passed=$((passed + ${unit_pass:-0}))
failed=$((failed + ${unit_fail:-0}))
if [ "$unit_rc" -ne 0 ] && [ "${unit_fail:-0}" -eq 0 ]; then
  echo "FAILED: unit tests did not run (exit $unit_rc)" >&2
  failed=$((failed + 1))
fi

step "package (.vsix with the bundled server)"
PYTHON="${PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}"
TARGET="$(node -p 'process.platform + "-" + process.arch')"
VSIX="iterative-retrieval-$TARGET.vsix"
stage "package" env PYTHON="$PYTHON" npm run --silent package
ls -l "$VSIX"
cp "$VSIX" "$ARTIFACTS/"

if [ "$E2E_MODE" = "off" ]; then
  echo "e2e skipped (IR_E2E=off)"
  skipped=$((skipped + 1))
  finish
fi

step "code-server 4.100.3 + chromium (cached in $CACHE/code-server)"
stage "install code-server" bash scripts/install-code-server.sh "$CACHE/code-server"

step "end-to-end ($E2E_MODE) in code-server"
if ! "$PYTHON" -c 'import iterative_retrieval' 2>/dev/null; then
  echo "FAILED: $PYTHON cannot import iterative_retrieval (pip install -e . from the repo root first)" >&2
  failed=$((failed + 1))
  finish
fi
e2e_log="$ARTIFACTS/e2e.log"
E2E_QUICK=$([ "$E2E_MODE" = "quick" ] && echo 1 || echo 0) \
  CODE_SERVER="$CACHE/code-server/node_modules/.bin/code-server" \
  VSIX="$HERE/$VSIX" \
  PYTHON="$PYTHON" \
  SCREENSHOT="${SCREENSHOT:-$ARTIFACTS/vscode-sidebar.png}" \
  node e2e/run.mjs 2>&1 | tee "$e2e_log"
e2e_rc=${PIPESTATUS[0]}
counts=$(sed -n 's/^e2e: \([0-9]*\) passed, \([0-9]*\) failed.*$/\1 \2/p' "$e2e_log" | tail -1)
if [ -n "$counts" ]; then
  passed=$((passed + ${counts% *}))
  failed=$((failed + ${counts#* }))
fi
if [ "$e2e_rc" -ne 0 ] && { [ -z "$counts" ] || [ "${counts#* }" -eq 0 ]; }; then
  echo "FAILED: e2e exited $e2e_rc" >&2
  failed=$((failed + 1))
fi
finish
