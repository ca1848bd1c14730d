#!/usr/bin/env bash
# Installs what tests/tools/rapid-draughts needs: Debian's nodejs and npm
# (root, or sudo when present, like scripts/setup.sh), then the pinned npm
# packages from its package-lock.json. Idempotent: does nothing when node and
# npm are there and node_modules is newer than package-lock.json.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$root/tests/tools/rapid-draughts"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo="sudo"
  echo "setup-node: installing nodejs npm"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
echo "setup-node: node $(node --version), npm $(npm --version 2>/dev/null)"

if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules" ]; then
  echo "setup-node: npm ci in ${dir#"$root"/}"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  touch "$dir/node_modules"
else
  echo "setup-node: ${dir#"$root"/}/node_modules is up to date"
fi
