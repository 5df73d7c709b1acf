#!/usr/bin/env bash
# `npm run test:e2e`: the end-to-end test (leg.sh) in each n8n the package is proven on, one after
# the other with the same checks: n8n 2.8.4 on Node 20 and n8n 2.41.1 on Node 24, the latter in
# the default and the durable poll scheduler. `npm run test:e2e -- --n8n 2.41` runs one of them.
# The package is built and packed once for both. Each leg runs to its end even when the other
# failed; the summary gives each leg's outcome and time.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=lib.sh
source "$repo/scripts/e2e/lib.sh"

lines=()
while [ $# -gt 0 ]; do
	case "$1" in
	--n8n) lines+=("${2:?--n8n needs a version: ${n8n_lines[*]}}"); shift 2 ;;
	*) die "unknown argument $1 (usage: npm run test:e2e [-- --n8n <${n8n_lines[*]// /|}>])" ;;
	esac
done
[ ${#lines[@]} -gt 0 ] || lines=("${n8n_lines[@]}")
for line in "${lines[@]}"; do use_n8n "$line"; done # refuses an unknown one before any work

work="$(mktemp -d "${TMPDIR:-/tmp}/job-search-e2e-pack.XXXXXX")"
trap 'rm -rf "$work"' EXIT
log "building and packing the package once for every leg"
build_and_pack

summary=()
status=0
for line in "${lines[@]}"; do
	use_n8n "$line"
	leg_started=$SECONDS
	leg_status=0
	E2E_TARBALL="$tarball" bash "$e2e_dir/leg.sh" "$line" || leg_status=$?
	summary+=("$(n8n_label): $([ $leg_status -eq 0 ] && echo passed || echo FAILED) in $((SECONDS - leg_started)) s")
	[ $leg_status -eq 0 ] || status=1
done
log "== end to end:"
for line in "${summary[@]}"; do log "   $line"; done
exit $status
