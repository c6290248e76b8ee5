#!/usr/bin/env bash
# Re-resolves the test/lint tools of pyproject.toml (wiggum's dependencies plus the
# `test` extra) into requirements/test.txt, every file pinned by sha256.  Run it after
# changing pyproject.toml's dependencies, then commit the lock; scripts/test.sh
# installs from it with --require-hashes.  Needs uv (`pip install uv`).
set -euo pipefail
cd "$(dirname "$0")/.."
uv pip compile pyproject.toml --extra test --universal --python-version 3.11 \
  --generate-hashes --custom-compile-command scripts/lock_dev.sh --output-file requirements/test.txt
