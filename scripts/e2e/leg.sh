#!/usr/bin/env bash
# `npm run test:e2e`: this package, packed and installed with the README's own install recipe
# (lib.sh install_package), in a REAL n8n 2.8.4 (the newest that runs on Node 20) against the
# reference server:
#   1. `n8n execute`: Search Jobs -> Get Job returns the searched jobs, and no key leaks;
#      n8n's own credential test (POST /rest/credentials/test) shows the credential's texts;
#   2. queue mode (Redis + n8n main + one worker), the server in fast live mode: a webhook workflow
#      with the node runs on the worker; a published Job Search Trigger polls on main every minute
#      and delivers every new job once, as one item; nothing fails;
#   3. the editor in Chromium (puppeteer-core), on the same main at the same time: log in, open a
#      workflow, add Job Search from the nodes panel, add a filter, execute, read the output panel,
#      no console error naming the package; screenshots in e2e-screenshots/.
# n8n installs once from scripts/e2e/n8n's lockfile into ~/.cache/n8n-nodes-job-search; chromium
# and redis-server are installed from Debian when missing. Every process is stopped by its pid.
# KEEP_WORK=1 keeps the n8n folders and logs.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=lib.sh
source "$repo/scripts/e2e/lib.sh"
# shellcheck source=examples.sh
source "$repo/scripts/e2e/examples.sh"

started=$SECONDS
work="$(mktemp -d "${TMPDIR:-/tmp}/job-search-e2e.XXXXXX")"
shots="$repo/e2e-screenshots"
finish() {
	local status=$?
	stop_all
	if [ $status -ne 0 ]; then
		for f in "$work"/*.log; do [ -f "$f" ] && { echo "---- last lines of $f"; tail -15 "$f" | cut -c1-400; } >&2; done
	fi
	if [ -n "${KEEP_WORK:-}" ]; then log "kept $work"; else rm -rf "$work"; fi
	log "e2e $([ $status -eq 0 ] && echo passed || echo FAILED) in $((SECONDS - started)) s"
}
trap finish EXIT
trap 'exit 130' INT TERM

step() { log "== $*"; }

step "prerequisites: chromium and redis-server, n8n 2.8.4, build and pack (in parallel)"
ensure_debian_packages >"$work/apt.log" 2>&1 &
apt_pid=$!
pids+=($apt_pid)
build_and_pack
wait $apt_pid || { cat "$work/apt.log" >&2; die "installing chromium/redis-server failed"; }
stop_pid $apt_pid # already exited: only forgets its pid
ensure_n8n
log "prerequisites ready after $((SECONDS - started)) s"

prepare_workbench
n8n_cli import:credentials --input="$work/credentials.json" >"$work/import.log" 2>&1 || die "import:credentials failed"
n8n_cli import:workflow --separate --input="$e2e_dir/workflows" >>"$work/import.log" 2>&1 || die "import:workflow failed"
import_examples

step "n8n loads the package"
n8n_cli export:nodes --output="$work/nodes.json" >"$work/export.log" 2>&1 || die "export:nodes failed"
node -e '
const types = require(process.argv[1]).map((t) => t.name);
for (const t of ["jobSearch", "jobSearchTrigger", "jobSearchTool"]) {
	if (!types.includes(`n8n-nodes-job-search.${t}`)) { console.error(`n8n did not load ${t}`); process.exit(1); }
}
console.log("  loaded jobSearch, jobSearchTrigger and the jobSearchTool AI tool variant");' "$work/nodes.json"
check_example_nodes "$work/nodes.json"

step "n8n execute: Search Jobs -> Get Job"
N8N_LOG_FORMAT=json N8N_RUNNERS_BROKER_PORT="$(free_port)" n8n_cli execute --id=jobSearchE2E01 --rawOutput >"$work/execute.log" 2>&1 || true
node "$e2e_dir/check-execute.mjs" "$work/execute.log" "$n8n_key" "Search Jobs" "Get Job"

step "queue mode: redis-server, n8n main and one worker"
redis_port="$(free_port)"
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no >"$work/redis.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do redis-cli -p "$redis_port" ping 2>/dev/null | grep -q PONG && break; sleep 0.2; done
queue=(EXECUTIONS_MODE=queue QUEUE_BULL_REDIS_HOST=127.0.0.1 QUEUE_BULL_REDIS_PORT="$redis_port" OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true)
n8n_port="$(free_port)"
n8n_url="http://127.0.0.1:$n8n_port"
start_n8n "$work/main.log" "${queue[@]}" N8N_PORT="$n8n_port" N8N_RUNNERS_BROKER_PORT="$(free_port)" start
main_pid=${pids[-1]}
start_n8n "$work/worker.log" "${queue[@]}" N8N_RUNNERS_BROKER_PORT="$(free_port)" QUEUE_HEALTH_CHECK_PORT="$(free_port)" worker --concurrency=2
wait_http "$n8n_url/healthz" 120 "n8n main"
setup_owner "$n8n_url"
for _ in $(seq 1 240); do grep -qi "worker.*ready\|ready.*worker" "$work/worker.log" && break; sleep 0.5; done
grep -qi "worker.*ready\|ready.*worker" "$work/worker.log" || die "the n8n worker did not become ready"
log "main at $n8n_url (pid $main_pid), worker ready"

step "n8n's credential test (POST /rest/credentials/test): good key, wrong key, Base URL with /v1, a web page"
N8N_URL="$n8n_url" OWNER_EMAIL="$owner_email" OWNER_PASSWORD="$owner_password" SERVER_URL="$server_url" API_KEY="$n8n_key" \
	node "$e2e_dir/check-credential.mjs" 2>&1 | sed -u 's/^/  /' || die "credential test check failed"

rm -rf "$shots"
mkdir -p "$shots"
step "in parallel: the trigger and webhook in queue mode, and the editor in Chromium"
N8N_URL="$n8n_url" SERVER_URL="$server_url" CHECKER_KEY="$checker_key" TRIGGER_KEY="$n8n_key" N8N_DIR="$N8N_DIR" \
	MAIN_LOG="$work/main.log" WORKER_LOG="$work/worker.log" TRIGGER_WORKFLOW=jobSearchE2E02 WEBHOOK_WORKFLOW=jobSearchE2E03 \
	OWNER_EMAIL="$owner_email" OWNER_PASSWORD="$owner_password" \
	node "$e2e_dir/check-queue.mjs" 2>&1 | sed -u 's/^/  queue | /' &
queue_pid=$!
pids+=($queue_pid)
editor_status=0
N8N_URL="$n8n_url" OWNER_EMAIL="$owner_email" OWNER_PASSWORD="$owner_password" SHOTS="$shots" \
	EDITOR_WORKFLOW=jobSearchE2E04 node "$e2e_dir/editor.mjs" 2>&1 | sed -u 's/^/  editor | /' || editor_status=$?
examples_status=0
check_examples_in_editor "$n8n_url" 2>&1 | sed -u 's/^/  examples | /' || examples_status=$?
queue_status=0
wait $queue_pid || queue_status=$?
stop_pid $queue_pid # already exited: only forgets its pid
[ "$editor_status" -eq 0 ] || die "editor check failed (screenshots in $shots)"
[ "$queue_status" -eq 0 ] || die "queue-mode check failed"
[ "$examples_status" -eq 0 ] || die "examples and output-schema check failed (screenshots in $shots)"
if grep -F "$n8n_key" "$work"/*.log >/dev/null; then die "the API key appears in a log"; fi
log "all end-to-end checks passed"
