#!/usr/bin/env bash
# Step "Install the kit" of the composite action (action.yml): makes srk runnable and writes the
# path of its entry point (bin/srk.mjs) to the step output `entry`.
#
#   SRK_KIT_VERSION empty (the default): the action's own checkout, $GITHUB_ACTION_PATH (the ref
#     named in `uses:`), with its dependencies installed by `npm ci`, devDependencies included: a
#     checkout has the TypeScript sources and no dist/, and bin/srk.mjs runs them with tsx (a
#     devDependency). Skipped when that checkout already has its node_modules (`uses: ./` in the
#     kit's own repository after `npm ci`).
#   SRK_KIT_VERSION set: `npm install samsara-ripa-kit@$SRK_KIT_VERSION` into a fresh temporary
#     folder; any npm spec after the @ works: 0.1.0, a dist-tag, github:owner/repo#ref (npm packs
#     it, building dist/), a tarball URL. The package runs its compiled dist/.
#
# Inputs come from the environment only (set by the step's env:), never from the script's text.
set -euo pipefail

fail() {
  echo "::error title=srk certify::$1"
  exit 64
}

action_path="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set: run this as a step of action.yml}"
version="${SRK_KIT_VERSION:-}"

if [[ -z "$version" ]]; then
  kit="$action_path"
  [[ -f "$kit/package-lock.json" ]] || fail "no package-lock.json in the action's checkout $kit"
  if [[ -f "$kit/node_modules/.package-lock.json" ]]; then
    echo "srk: using the kit at $kit with its installed node_modules"
  else
    echo "srk: installing the kit's dependencies in $kit (npm ci)"
    (cd "$kit" && npm ci --no-audit --no-fund)
  fi
else
  [[ "$version" != *$'\n'* ]] || fail "kit-version must be one line"
  dir="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/srk-kit.XXXXXX")"
  echo "srk: installing samsara-ripa-kit@$version in $dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund "samsara-ripa-kit@$version"
  kit="$dir/node_modules/samsara-ripa-kit"
fi

entry="$kit/bin/srk.mjs"
[[ -f "$entry" ]] || fail "the kit has no bin/srk.mjs at $kit"
# A start-up check, so that a broken install fails here rather than as an srk exit code.
node "$entry" list >/dev/null || fail "srk does not start from $entry"
echo "entry=$entry" >> "${GITHUB_OUTPUT:-/dev/null}"
echo "srk: $entry"
