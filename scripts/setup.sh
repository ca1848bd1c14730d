#!/usr/bin/env bash
# Installs what Duel needs from Debian (root, or sudo when present).
# Idempotent: does nothing when every package is already installed.
set -euo pipefail
packages=(
  g++ cmake ninja-build pkg-config clang-format clang-tidy
  libfmt-dev libcli11-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev librapidcheck-dev libbenchmark-dev
  gnuplot-nox python3 fairy-stockfish
  pybind11-dev python3-dev python3-pytest python3-setuptools python3-venv python3-pip
  python3-torch python3-numpy python3-nbclient python3-nbformat python3-ipykernel python3-matplotlib
  libmicrohttpd-dev libcpp-httplib-dev wrk libsodium-dev libsqlite3-dev libarchive-dev
  python3-distributed iproute2 bubblewrap util-linux
  clang-14 libclang-rt-14-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
