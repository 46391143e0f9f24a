#!/usr/bin/env bash
# Installs code-server 4.100.3 (VS Code 1.100.3) from npm into $1 (default .cache/code-server),
# offline except for the npm registry, and Debian's chromium, ripgrep and krb5 headers when missing.
# Idempotent: a finished install leaves a stamp file and is reused.
set -euo pipefail

VERSION=4.100.3
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="${1:-$HERE/.cache/code-server}"
STAMP="$DEST/.installed-$VERSION"

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
[ -e /usr/include/gssapi/gssapi.h ] || [ -e /usr/include/krb5.h ] || need_apt+=(libkrb5-dev)
# the bare Python the e2e puts alone on code-server's PATH (Debian's, without the project)
[ -x /usr/bin/python3 ] || need_apt+=(python3)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "install-code-server: apt-get install ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq -o DPkg::Lock::Timeout=300 "${need_apt[@]}" >/dev/null
fi

if [ -f "$STAMP" ] && [ -x "$DEST/node_modules/.bin/code-server" ]; then
  echo "install-code-server: code-server $VERSION already in $DEST"
  exit 0
fi

# npx inside the native modules' install scripts (node-gyp) must not stop to ask.
export npm_config_yes=true
mkdir -p "$DEST"
cd "$DEST"
cat > package.json <<JSON
{
  "name": "code-server-install",
  "private": true,
  "allowScripts": { "code-server": false, "argon2": true }
}
JSON
echo "install-code-server: npm install code-server@$VERSION"
npm install --no-audit --no-fund --loglevel=error "code-server@$VERSION"

CS="$DEST/node_modules/code-server"
cd "$CS/lib/vscode"
echo "install-code-server: VS Code's own dependencies"
npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
echo "install-code-server: rebuilding native modules"
if ! npm rebuild --foreground-scripts --dangerously-allow-all-scripts >"$DEST/rebuild.log" 2>&1; then
  tail -40 "$DEST/rebuild.log"
  echo "install-code-server: npm rebuild failed (log: $DEST/rebuild.log)" >&2
  exit 1
fi
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sf code-linux.sh code-server)
(cd bin/helpers && ln -sf browser-linux.sh browser.sh)
(cd extensions && npm install --omit=dev --no-audit --no-fund --loglevel=error --dangerously-allow-all-scripts)

touch "$STAMP"
echo "install-code-server: done ($CS)"
