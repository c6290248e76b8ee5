#!/usr/bin/env bash
# Runs every test of Wiggum on a fresh machine.
#
# Installs what is missing (a venv with the Python packages from PyPI, hash-locked,
# Debian's Chromium for the end-to-end tests, Debian's git, zip and unzip for the
# history tests, the proxy's npm packages and GitHub's REST description from their
# lock files), builds the page's vendored runtime, then runs lint, the Python tests
# (unit, conformance, end-to-end in Chromium) and the proxy's tests in real workerd.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "Python environment"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
# shellcheck disable=SC1091
. .venv/bin/activate
python -m pip install -q --disable-pip-version-check --upgrade pip
# Test and lint tools come from a lock with hashes (requirements/test.txt, made from
# pyproject.toml by scripts/lock_dev.sh), like build_lock.json pins the page's runtime.
python -m pip install -q --disable-pip-version-check --require-hashes -r requirements/test.txt
python -m pip install -q --disable-pip-version-check --no-deps -e .

step "Chromium (Debian package)"
if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium
fi
chromium --version

step "git, zip and unzip (Debian packages: the history tests check with the real git)"
missing=""
for tool in git zip unzip; do
  command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -q
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing
fi
git --version

step "Proxy packages (npm ci from the lock file)"
npm ci --prefix proxy --no-audit --no-fund --loglevel=error

step "GitHub's REST description (npm ci from the lock file)"
# @octokit/openapi: what the GitHub simulator's every answer is checked against.
npm ci --prefix tests/github_api --no-audit --no-fund --loglevel=error

step "Build the page (vendored Pyodide, PyScript, wheels)"
python build.py

step "Lint"
ruff check .
ruff format --check .

step "Python tests"
python -m pytest -q -p no:cacheprovider

step "Proxy tests (workerd)"
npm test --prefix proxy
