#!/usr/bin/env bash
# Builds the real servers that the observability tests and `npm run stack` run, from their own Go sources,
# into a cache outside the repo, once per version: Jaeger v2, Prometheus 3 with promtool, Alertmanager with
# amtool, and the stack's OpenTelemetry Collector (otelcol-tool-calls, assembled by the Collector Builder
# from observability/collector/builder-config.yaml, once per version of that manifest).
#
#   bash scripts/services.sh            # build what is missing (a second run reuses everything)
#   bash scripts/services.sh --print-bin # only print the bin directory the tests read
#
# Each component is a scratch Go module under $CACHE/src/<name>-<version> (`go mod init` +
# `go get -tool <module>/cmd/<cmd>@<version>`); binaries land in $CACHE/bin as <cmd>-<version>, with
# a <cmd> symlink to the current version. The tests find them through OTEL_TOOL_CALLS_SERVICES_BIN
# (default: $CACHE/bin). A failed build does not stop the others: the script says which failed and
# why (the tail of its log), and exits 1; the tests then fall back to Debian's packages (Jaeger has none).
#
# Needs Go (1.26: /usr/local/go/bin is tried when `go` is not on PATH) and the Go module proxy.
set -uo pipefail

CACHE="${OTEL_TOOL_CALLS_SERVICES_CACHE:-$HOME/.cache/otel-tool-calls-services}"
BIN="$CACHE/bin"
if [ "${1:-}" = "--print-bin" ]; then
  echo "$BIN"
  exit 0
fi

JAEGER_VERSION=v1.76.0 # the Go module version of Jaeger 2.x's cmd/jaeger (`jaeger version` prints the 2.x one)
PROMETHEUS_VERSION=v0.316.0 # Prometheus 3.16
ALERTMANAGER_VERSION=v0.35.0
# The OpenTelemetry Collector Builder (ocb) of the core release the manifest's modules are on (v0.140.0 /
# contrib v0.140.1, Jaeger 2.13's line: Jaeger's build leaves most of the collector's packages in the Go
# build cache, which is why the collector is built after it).
COLLECTOR_BUILDER_VERSION=v0.140.0
COLLECTOR_MANIFEST="$(cd "$(dirname "$0")/.." && pwd)/observability/collector/builder-config.yaml"

if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then export PATH="/usr/local/go/bin:$PATH"; fi
if ! command -v go >/dev/null; then
  echo "services.sh: no Go toolchain (go not on PATH, nor /usr/local/go/bin/go): nothing built" >&2
  exit 1
fi
mkdir -p "$BIN" "$CACHE/src" "$CACHE/logs"

failed=()

# The directory of a module version in the module cache (downloading it if needed); run outside any module,
# so that a `replace` of the scratch module does not apply. On failure, says what `go` said.
module_dir() {
  local json dir
  json=$(cd / && go mod download -json "$1@$2" 2>&1) || true
  dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' <<<"$json")
  if [ -z "$dir" ]; then
    echo "go mod download $1@$2 failed: $json" >&2
    return 1
  fi
  echo "$dir"
}

# Prometheus and Alertmanager print their version from ldflags, set by their release tool (promu):
# set the same variables, from the VERSION file of the module, so that `--version` tells the truth.
prometheus_ldflags() { # <module dir> <module version>
  local v="github.com/prometheus/common/version"
  echo "-X $v.Version=$(cat "$1/VERSION") -X $v.Branch=$2 -X $v.Revision=$2 -X $v.BuildUser=otel-tool-calls/scripts/services.sh"
}

# Jaeger's module version is v1.x; its release notes pair it with the 2.x version that the binary and the
# image are known by (a line "v1.76.0 / v2.13.0 (date)"). Jaeger's Makefile sets it through ldflags.
jaeger_ldflags() { # <module dir> <module version>
  local v2
  v2=$(grep -oE "^$2 / v2\.[0-9]+\.[0-9]+" "$1/CHANGELOG.md" | head -1 | cut -d' ' -f3)
  if [ -z "$v2" ]; then
    echo "no '$2 / v2.x.y' line in $1/CHANGELOG.md: cannot tell which Jaeger 2.x this is" >&2
    return 1
  fi
  echo "-X github.com/jaegertracing/jaeger/internal/version.latestVersion=$v2 -X github.com/jaegertracing/jaeger/internal/version.commitSHA=$2"
}

# Alertmanager embeds its web UI (ui/app/dist), which is built by npm in its release process and is not
# in the Go module. The tests use only the HTTP API: build from a copy of the module with a one-page
# placeholder UI, through a `replace` in the scratch module.
alertmanager_prepare() { # <module dir> <scratch dir>
  local copy="$2/alertmanager-src"
  if [ ! -f "$copy/ui/app/dist/elm/index.html" ]; then
    rm -rf "$copy"
    cp -R "$1" "$copy" && chmod -R u+w "$copy" || return 1
    for ui in elm mantine; do
      mkdir -p "$copy/ui/app/dist/$ui"
      echo '<!doctype html><title>Alertmanager</title><p>Built without the web UI: use the API (/api/v2).</p>' \
        >"$copy/ui/app/dist/$ui/index.html"
    done
  fi
  go mod edit -replace "github.com/prometheus/alertmanager=./alertmanager-src"
}

# Says how a build ended: its time, or that it failed with the end of its log (and notes it in `failed`).
reported() { # <exit status> <name> <version> <log> <started (SECONDS)>
  if [ "$1" -eq 0 ]; then
    echo "   built in $((SECONDS - $5)) s"
  else
    echo "!! $2 $3: BUILD FAILED after $((SECONDS - $5)) s; the end of $4:" >&2
    grep -v '^go: downloading' "$4" | tail -15 | sed 's/^/   /' >&2
    failed+=("$2")
  fi
}

# build <name> <module> <version> <ldflags function> <prepare function or -> <cmd>...
build() {
  local name=$1 module=$2 version=$3 ldflags_of=$4 prepare=$5
  shift 5
  local cmd missing=()
  for cmd in "$@"; do
    if [ -x "$BIN/$cmd-$version" ]; then ln -sfn "$cmd-$version" "$BIN/$cmd"; else missing+=("$cmd"); fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "== $name $version: cached ($*)"
    return 0
  fi
  local log="$CACHE/logs/$name-$version.log" started=$SECONDS
  echo "== $name $version: building ${missing[*]} (log: $log)"
  # not `if ( ... )`: bash ignores `set -e` inside a subshell whose status a condition tests
  (
    set -euo pipefail
    dir="$CACHE/src/$name-$version"
    mkdir -p "$dir"
    cd "$dir"
    [ -f go.mod ] || go mod init "scratch/$name"
    source_dir=$(module_dir "$module" "$version")
    [ "$prepare" = - ] || "$prepare" "$source_dir" "$dir"
    for cmd in "${missing[@]}"; do go get -tool "$module/cmd/$cmd@$version"; done
    flags=$("$ldflags_of" "$source_dir" "$version")
    for cmd in "${missing[@]}"; do
      # write to a temporary name: an interrupted build never leaves a half-written binary under the final name
      go build -ldflags "$flags" -o "$BIN/.$cmd-$version.tmp" "$module/cmd/$cmd"
      mv "$BIN/.$cmd-$version.tmp" "$BIN/$cmd-$version"
      ln -sfn "$cmd-$version" "$BIN/$cmd"
    done
  ) >"$log" 2>&1
  reported $? "$name" "$version" "$log" "$started"
}

# The collector: `builder --config=<manifest>` in a scratch folder generates its main package and go.mod
# (the versions the manifest names), runs `go mod tidy` and `go build`; the binary is kept as
# otelcol-tool-calls-v<version>-<manifest hash>, so that a change of the manifest builds it again.
build_collector() {
  local name=otelcol-tool-calls version hash tag
  version=$(sed -n 's/^  version: *//p' "$COLLECTOR_MANIFEST")
  hash=$(sha256sum "$COLLECTOR_MANIFEST" | cut -c1-12)
  tag="v$version-$hash"
  if [ -x "$BIN/$name-$tag" ]; then
    ln -sfn "$name-$tag" "$BIN/$name"
    echo "== collector $tag: cached ($name)"
    return 0
  fi
  local log="$CACHE/logs/collector-$tag.log" started=$SECONDS
  echo "== collector $tag: building $name with the Collector Builder $COLLECTOR_BUILDER_VERSION (log: $log)"
  (
    set -euo pipefail
    dir="$CACHE/src/collector-$tag"
    mkdir -p "$dir"
    cd "$dir"
    [ -f go.mod ] || go mod init scratch/collector-builder
    go get -tool "go.opentelemetry.io/collector/cmd/builder@$COLLECTOR_BUILDER_VERSION"
    go build -o builder go.opentelemetry.io/collector/cmd/builder
    ./builder --config="$COLLECTOR_MANIFEST"
    mv "$name/$name" "$BIN/.$name-$tag.tmp"
    mv "$BIN/.$name-$tag.tmp" "$BIN/$name-$tag"
    ln -sfn "$name-$tag" "$BIN/$name"
  ) >"$log" 2>&1
  reported $? collector "$tag" "$log" "$started"
}

build alertmanager github.com/prometheus/alertmanager "$ALERTMANAGER_VERSION" prometheus_ldflags alertmanager_prepare \
  alertmanager amtool
build prometheus github.com/prometheus/prometheus "$PROMETHEUS_VERSION" prometheus_ldflags - prometheus promtool
build jaeger github.com/jaegertracing/jaeger "$JAEGER_VERSION" jaeger_ldflags - jaeger
build_collector

for cmd in jaeger prometheus promtool alertmanager amtool otelcol-tool-calls; do
  [ -x "$BIN/$cmd" ] || continue
  case $cmd in
    jaeger) flag=version ;;
    *) flag=--version ;;
  esac
  printf '   %-12s %s\n' "$cmd" "$("$BIN/$cmd" $flag 2>&1 | grep -m1 -iE 'version|gitVersion' | tr -s ' ')"
done
echo "   bin: $BIN ($(du -sh "$CACHE" 2>/dev/null | cut -f1) in $CACHE)"

if [ ${#failed[@]} -gt 0 ]; then
  echo "!! services.sh: failed to build: ${failed[*]} (see above); the tests fall back to Debian's Prometheus/Alertmanager, Jaeger's and the stack's tests cannot run" >&2
  exit 1
fi
