#!/usr/bin/env bash
# Step "srk certify" of the composite action (action.yml): runs `srk certify` with the action's
# inputs and maps srk's exit code to the step's:
#
#   0  certified                       -> 0
#   1  violations found                -> 1; 0 with a warning when SRK_FAIL_ON_VIOLATIONS=false
#   2  inconclusive                    -> 2; 0 with a warning when SRK_FAIL_ON_INCONCLUSIVE=false
#   64 usage error, 70 runner bug, and any other code (killed, node missing) -> the same, always
#
# Inputs come from the environment only (the step's env:, one SRK_* variable per input), never
# from the script's text, so no input can inject shell. Each option is passed as one argument
# (--seed=VALUE), so no value is read as another option. Step outputs (GITHUB_OUTPUT): exit-code,
# result, certificate, artifact-name. report.md goes to the job summary (GITHUB_STEP_SUMMARY).
set -uo pipefail

outputs="${GITHUB_OUTPUT:-/dev/null}"
output() { printf '%s=%s\n' "$1" "$2" >> "$outputs"; }

usage() {
  echo "::error title=srk certify::$1"
  output exit-code 64
  output result usage-error
  exit 64
}

boolean() { # name value
  case "$2" in
    true | false) ;;
    *) usage "$1 must be true or false, got '$2'" ;;
  esac
}

out="${SRK_OUT:-srk-reports}"
shard="${SRK_SHARD:-}"

# The artifact's name first, so the upload step has it whatever happens next.
if [[ -n "${SRK_ARTIFACT_NAME:-}" ]]; then
  artifact="${SRK_ARTIFACT_NAME//[^A-Za-z0-9._-]/-}"
elif [[ -n "$shard" ]]; then
  artifact="srk-reports-shard-${shard//\//-of-}"
  artifact="${artifact//[^A-Za-z0-9._-]/-}"
else
  artifact="srk-reports"
fi
output artifact-name "$artifact"

[[ -n "${SRK_ENTRY:-}" ]] || usage "no srk entry point: the install step did not run"
[[ -n "${SRK_IMPL:-}" ]] || usage "the input impl (the implementation's command line) is required"
[[ "$out" != *$'\n'* ]] || usage "out must be one line"
fail_on_violations="${SRK_FAIL_ON_VIOLATIONS:-true}"
fail_on_inconclusive="${SRK_FAIL_ON_INCONCLUSIVE:-true}"
boolean fail-on-violations "$fail_on_violations"
boolean fail-on-inconclusive "$fail_on_inconclusive"
boolean job-summary "${SRK_JOB_SUMMARY:-true}"

args=(certify "--impl=$SRK_IMPL" "--out=$out")
[[ -z "${SRK_SEED:-}" ]] || args+=("--seed=$SRK_SEED")
[[ -z "${SRK_RUNS:-}" ]] || args+=("--runs=$SRK_RUNS")
[[ -z "${SRK_TIME_BUDGET:-}" ]] || args+=("--time-budget=$SRK_TIME_BUDGET")
[[ -z "$shard" ]] || args+=("--shard=$shard")
[[ -z "${SRK_ONLY:-}" ]] || args+=("--only=$SRK_ONLY")
[[ -z "${SRK_EXPECTED_FAILURES:-}" ]] || args+=("--expected-failures=$SRK_EXPECTED_FAILURES")

code=0
node "$SRK_ENTRY" "${args[@]}" || code=$?

case "$code" in
  0) result=certified ;;
  1) result=violations ;;
  2) result=inconclusive ;;
  64) result=usage-error ;;
  70) result=runner-bug ;;
  *) result=error ;;
esac
output exit-code "$code"
output result "$result"
if [[ -f "$out/certificate.json" ]]; then
  output certificate "$out/certificate.json"
else
  output certificate ""
fi

if [[ "${SRK_JOB_SUMMARY:-true}" == true && -n "${GITHUB_STEP_SUMMARY:-}" && -f "$out/report.md" ]]; then
  if (($(wc -c < "$out/report.md") < 1000000)); then
    cat "$out/report.md" >> "$GITHUB_STEP_SUMMARY"
  else
    echo "report.md is too large for the job summary: see the $artifact artifact" >> "$GITHUB_STEP_SUMMARY"
  fi
fi

case "$code" in
  0)
    exit 0 ;;
  1)
    if [[ "$fail_on_violations" == true ]]; then
      echo "::error title=srk certify::violations found (exit 1): the certificate and counterexamples are in the $artifact artifact"
      exit 1
    fi
    echo "::warning title=srk certify::violations found (exit 1), not failing the step (fail-on-violations: false)"
    exit 0 ;;
  2)
    if [[ "$fail_on_inconclusive" == true ]]; then
      echo "::error title=srk certify::inconclusive (exit 2): see the reasons in the $artifact artifact; raise time-budget if the implementation is slow rather than wrong"
      exit 2
    fi
    echo "::warning title=srk certify::inconclusive (exit 2), not failing the step (fail-on-inconclusive: false)"
    exit 0 ;;
  64)
    echo "::error title=srk certify::usage error (exit 64): check the action's inputs"
    exit 64 ;;
  70)
    echo "::error title=srk certify::internal error of the runner (exit 70): please report it"
    exit 70 ;;
  *)
    echo "::error title=srk certify::srk ended with exit code $code"
    exit "$code" ;;
esac
