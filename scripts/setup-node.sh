#!/usr/bin/env bash
# Installs what the Node-based tests need: Debian's nodejs and npm (root, or
# sudo when present, like scripts/setup.sh), the pinned npm packages of each
# package-lock.json below (tests/tools/rapid-draughts: a second checkers
# agent; tests/web: playwright-core for the page's end-to-end test), and
# Debian's chromium for that test. Chromium failing to install does not fail
# the setup: web.e2e then skips with a message. Idempotent: does nothing when
# everything is there and each node_modules is newer than its lock file.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dirs=("$root/tests/tools/rapid-draughts" "$root/tests/web")
sudo=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo="sudo"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "setup-node: installing nodejs npm"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
echo "setup-node: node $(node --version), npm $(npm --version 2>/dev/null)"

for dir in "${dirs[@]}"; do
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules" ]; then
    echo "setup-node: npm ci in ${dir#"$root"/}"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    touch "$dir/node_modules"
  else
    echo "setup-node: ${dir#"$root"/}/node_modules is up to date"
  fi
done

# The browser of tests/web/e2e.mjs (playwright-core drives it; it downloads none).
if [ -x /usr/bin/chromium ]; then
  echo "setup-node: chromium is installed"
else
  echo "setup-node: installing chromium (for tests/web)"
  if ! { $sudo apt-get update -qq &&
         DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null; }; then
    echo "setup-node: could not install chromium: the web.e2e test will be skipped" >&2
  fi
fi
