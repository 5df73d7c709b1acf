#!/usr/bin/env bash
# One leg of `npm run test:e2e` (run.sh runs both): this package, packed and installed with the
# README's own install recipe (lib.sh install_package), in a REAL n8n against the reference server.
#   bash scripts/e2e/leg.sh <2.8|2.41>   (n8n 2.8.4 on Node 20, or n8n 2.41.1 on Node 24)
# The same checks in both:
#   1. n8n loads the package; `n8n execute`: Search Jobs -> Get Job returns the searched jobs, and
#      no key leaks; n8n's AI Agent (3.1 and 2.2) with the Job Search tool and a scripted
#      OpenAI-compatible model reads a search, a job, and refusals it corrects (agent.sh); n8n's own credential test (POST /rest/credentials/test) shows the
#      credential's texts, and (n8n 2.41) an HTTP Request node cannot be saved with it;
#   2. queue mode (Redis + n8n main + one worker), the server in fast live mode, at once:
#      - a webhook workflow with the node runs on the worker; a published Job Search Trigger polls
#        on main every minute and delivers every new job once, as one item, through a 429 storm,
#        with no failed execution (check-queue.mjs);
#      - a trigger workflow published while its key answers 429 becomes active and carries on;
#      - three trigger workflows on one key of the Free plan (10 requests a minute) run for
#        several minutes with no failed execution, each job once per workflow (check-triggers.mjs);
#      - the editor in Chromium (puppeteer-core): log in, open a workflow, add Job Search from the
#        nodes panel, add a filter, execute, read the output panel, no console error naming the
#        package; the examples and output schemas; screenshots in e2e-screenshots/<n8n version>/;
#   3. n8n 2.41 only, n8n main alone in the durable scheduler (poll triggers as scheduled tasks,
#      the trigger's state a cursor committed with each execution): a trigger workflow sends each
#      job once across its activation poll, a restart of n8n, and a poll n8n abandons at its
#      timeout while the reference server is slow (slow-link.mjs).
# Every check runs, and the leg fails at the end naming each that failed. n8n installs once from
# its committed lockfile into ~/.cache/n8n-nodes-job-search; chromium and redis-server are
# installed from Debian when missing. Every process is stopped by its pid. KEEP_WORK=1 keeps
# the n8n folders and logs; E2E_TARBALL reuses a tarball run.sh packed.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=lib.sh
source "$repo/scripts/e2e/lib.sh"
# shellcheck source=examples.sh
source "$repo/scripts/e2e/examples.sh"
# shellcheck source=agent.sh
source "$repo/scripts/e2e/agent.sh"

use_n8n "${1:?usage: leg.sh <2.8|2.41>}"
started=$SECONDS
work="$(mktemp -d "${TMPDIR:-/tmp}/job-search-e2e.XXXXXX")"
shots="$repo/e2e-screenshots/n8n-$n8n_version"
failed=()
finish() {
	local status=$?
	stop_all
	if [ $status -ne 0 ]; then
		for f in "$work"/*.log; do [ -f "$f" ] && { echo "---- last lines of $f"; tail -15 "$f" | cut -c1-400; } >&2; done
	fi
	if [ -n "${KEEP_WORK:-}" ]; then log "kept $work"; else rm -rf "$work"; fi
	log "e2e in $(n8n_label) $([ $status -eq 0 ] && echo passed || echo FAILED) in $((SECONDS - started)) s"
}
trap finish EXIT
trap 'exit 130' INT TERM

step() { log "== $(n8n_label): $*"; }
check_failed() { log "FAILED: $*" >&2; failed+=("$*"); }

step "prerequisites: chromium and redis-server, n8n, build and pack (in parallel)"
ensure_debian_packages >"$work/apt.log" 2>&1 &
apt_pid=$!
pids+=($apt_pid)
if [ -n "${E2E_TARBALL:-}" ]; then tarball="$E2E_TARBALL"; else build_and_pack; fi
wait $apt_pid || { cat "$work/apt.log" >&2; die "installing chromium/redis-server failed"; }
stop_pid $apt_pid # already exited: only forgets its pid
ensure_n8n
log "prerequisites ready after $((SECONDS - started)) s"

# Accounts of the reference server for the trigger checks, each with its own key: a Pro one for
# the queue-mode trigger (its 429 storm must not reach the editor's and the examples' key), the
# Free plan's for the shared key and for publishing under 429 (a Free key is easily kept at its
# limit), and a Pro one behind the slow link for the durable scheduler.
queue_key="$(new_key)" shared_key="$(new_key)" storm_key="$(new_key)" durable_key="$(new_key)"
extra_accounts=",{\"id\":\"queue-trigger\",\"plan\":\"pro\",\"poolMicrocents\":2900000000,\"packMicrocents\":0,\"keys\":[\"$queue_key\"]}"
extra_accounts+=",{\"id\":\"shared-free\",\"plan\":\"free\",\"keys\":[\"$shared_key\"]}"
extra_accounts+=",{\"id\":\"publish-under-429\",\"plan\":\"free\",\"keys\":[\"$storm_key\"]}"
extra_accounts+=",{\"id\":\"durable\",\"plan\":\"pro\",\"poolMicrocents\":2900000000,\"packMicrocents\":0,\"keys\":[\"$durable_key\"]}"
slow_port="$(free_port)" queue_link_port="$(free_port)"
# A package.json in the folder above the user folder (the HOME the recipe runs in), as a stray
# ~/package.json would be: the README's recipe must still put the package into ~/.n8n/nodes,
# which install_package checks.
echo '{"name": "stray-package-above-home", "private": true}' >"$work/package.json"
prepare_workbench
# Links to the server (slow-link.mjs): one the durable check makes slow, one that counts the
# answers the queue-mode trigger gets (so the 429 storm check sees them reach it).
node "$e2e_dir/slow-link.mjs" "$slow_port" "$server_url" >"$work/slow-link.log" 2>&1 &
pids+=($!)
node "$e2e_dir/slow-link.mjs" "$queue_link_port" "$server_url" >"$work/queue-link.log" 2>&1 &
pids+=($!)
start_model_standin
# The checks' own credentials first, the reference server's last: the editor gives a node it adds
# the newest credential of the type, and the editor check means the ordinary one.
write_credentials "$work/check-credentials.json" \
	jobSearchQueue "Job Search API (queue-mode trigger)" "$queue_key" "http://127.0.0.1:$queue_link_port" \
	jobSearchShared "Job Search API (shared Free key)" "$shared_key" "$server_url" \
	jobSearch429 "Job Search API (Free key under 429)" "$storm_key" "$server_url" \
	jobSearchSlow "Job Search API (slow link)" "$durable_key" "http://127.0.0.1:$slow_port"
add_agent_credential "$work/check-credentials.json"
# The trigger workflows of the checks above, from workflows/trigger.json: one per credential use
# (jobSearchE2E02 replaces the one imported from workflows/, with its own key); the agent
# workflows beside them.
node -e '
const fs = require("fs");
const [template, out, ...specs] = process.argv.slice(1);
fs.mkdirSync(out, { recursive: true });
for (const spec of specs) {
	const [id, name, credentialId, credentialName] = spec.split("|");
	const workflow = JSON.parse(fs.readFileSync(template, "utf8"));
	Object.assign(workflow, { id, name });
	workflow.nodes[0].credentials = { jobSearchApi: { id: credentialId, name: credentialName } };
	fs.writeFileSync(`${out}/${id}.json`, JSON.stringify(workflow));
}' "$e2e_dir/workflows/trigger.json" "$work/generated-workflows" \
	"jobSearchE2E02|Job Search e2e: trigger every minute|jobSearchQueue|Job Search API (queue-mode trigger)" \
	"jobSearchE2E05|Job Search e2e: shared Free key 1|jobSearchShared|Job Search API (shared Free key)" \
	"jobSearchE2E06|Job Search e2e: shared Free key 2|jobSearchShared|Job Search API (shared Free key)" \
	"jobSearchE2E07|Job Search e2e: shared Free key 3|jobSearchShared|Job Search API (shared Free key)" \
	"jobSearchE2E08|Job Search e2e: published under 429|jobSearch429|Job Search API (Free key under 429)" \
	"jobSearchE2E09|Job Search e2e: durable scheduler|jobSearchSlow|Job Search API (slow link)"
write_agent_workflows "$work/generated-workflows"
n8n_cli import:credentials --input="$work/check-credentials.json" >"$work/import.log" 2>&1 || die "import:credentials failed"
sleep 1.1 # a later second of creation, so the next one is the newest
n8n_cli import:credentials --input="$work/credentials.json" >>"$work/import.log" 2>&1 || die "import:credentials failed"
n8n_cli import:workflow --separate --input="$e2e_dir/workflows" >>"$work/import.log" 2>&1 || die "import:workflow failed"
n8n_cli import:workflow --separate --input="$work/generated-workflows" >>"$work/import.log" 2>&1 || die "import:workflow of the trigger and agent checks failed"
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
node "$e2e_dir/check-execute.mjs" "$work/execute.log" "$n8n_key" "Search Jobs" "Get Job" || check_failed "n8n execute"

step "n8n execute: AI Agent 3.1 and 2.2, the Job Search tool, a scripted OpenAI-compatible model"
check_agent "$n8n_key" "$checker_key" "$queue_key" "$shared_key" "$storm_key" "$durable_key" || check_failed "AI Agent with the Job Search tool"

step "queue mode: redis-server, n8n main and one worker"
redis_port="$(free_port)"
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no >"$work/redis.log" 2>&1 &
pids+=($!)
redis_pid=$!
for _ in $(seq 1 50); do redis-cli -p "$redis_port" ping 2>/dev/null | grep -q PONG && break; sleep 0.2; done
queue=(EXECUTIONS_MODE=queue QUEUE_BULL_REDIS_HOST=127.0.0.1 QUEUE_BULL_REDIS_PORT="$redis_port" OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true)
n8n_port="$(free_port)"
n8n_url="http://127.0.0.1:$n8n_port"
start_n8n "$work/main.log" "${queue[@]}" N8N_PORT="$n8n_port" N8N_RUNNERS_BROKER_PORT="$(free_port)" start
main_pid=${pids[-1]}
start_n8n "$work/worker.log" "${queue[@]}" N8N_RUNNERS_BROKER_PORT="$(free_port)" QUEUE_HEALTH_CHECK_PORT="$(free_port)" worker --concurrency=2
worker_pid=${pids[-1]}
wait_http "$n8n_url/healthz" 120 "n8n main"
setup_owner "$n8n_url"
for _ in $(seq 1 240); do grep -qi "worker.*ready\|ready.*worker" "$work/worker.log" && break; sleep 0.5; done
grep -qi "worker.*ready\|ready.*worker" "$work/worker.log" || die "the n8n worker did not become ready"
log "main at $n8n_url (pid $main_pid), worker ready"
n8n_api_env=(N8N_URL="$n8n_url" OWNER_EMAIL="$owner_email" OWNER_PASSWORD="$owner_password" SERVER_URL="$server_url" CHECKER_KEY="$checker_key" N8N_DIR="$N8N_DIR")

step "n8n's credential test (POST /rest/credentials/test): good key, wrong key, Base URL with /v1, a web page; the credential in an HTTP Request node"
env "${n8n_api_env[@]}" API_KEY="$n8n_key" N8N_LINE="$n8n_line" \
	node "$e2e_dir/check-credential.mjs" 2>&1 | sed -u 's/^/  /' || check_failed "credential test"

rm -rf "$shots"
mkdir -p "$shots"
step "in parallel: the trigger and webhook in queue mode with a 429 storm, publishing under 429, three workflows on one Free key, and the editor in Chromium"
check_pids=()
run_check() { # <name> <log prefix> <command...>: in the background, its status in $work/<name>.status
	local name="$1" prefix="$2"
	shift 2
	( "$@" 2>&1 | sed -u "s/^/  $prefix | /"; echo "${PIPESTATUS[0]}" >"$work/$name.status" ) &
	pids+=($!)
	check_pids+=($!)
}
check_status() { # <name> <what>: records a failure of a check run_check started
	[ "$(cat "$work/$1.status" 2>/dev/null)" = 0 ] || check_failed "$2"
}
run_check queue "queue" env "${n8n_api_env[@]}" TRIGGER_KEY="$queue_key" TRIGGER_LINK="http://127.0.0.1:$queue_link_port" MAIN_LOG="$work/main.log" WORKER_LOG="$work/worker.log" \
	TRIGGER_WORKFLOW=jobSearchE2E02 WEBHOOK_WORKFLOW=jobSearchE2E03 node "$e2e_dir/check-queue.mjs"
run_check under429 "429 at publishing" env "${n8n_api_env[@]}" LABEL="published under 429" WORKFLOWS=jobSearchE2E08 \
	STORM_KEY="$storm_key" MIN_SECONDS=180 MIN_DUE=3 node "$e2e_dir/check-triggers.mjs"
run_check shared "shared Free key" env "${n8n_api_env[@]}" LABEL="shared Free key" WORKFLOWS=jobSearchE2E05,jobSearchE2E06,jobSearchE2E07 \
	MIN_SECONDS="${SHARED_KEY_SECONDS:-300}" node "$e2e_dir/check-triggers.mjs"
editor_status=0
env N8N_URL="$n8n_url" OWNER_EMAIL="$owner_email" OWNER_PASSWORD="$owner_password" SHOTS="$shots" \
	EDITOR_WORKFLOW=jobSearchE2E04 node "$e2e_dir/editor.mjs" 2>&1 | sed -u 's/^/  editor | /' || editor_status=$?
[ "$editor_status" -eq 0 ] || check_failed "editor (screenshots in $shots)"
examples_status=0
check_examples_in_editor "$n8n_url" 2>&1 | sed -u 's/^/  examples | /' || examples_status=$?
[ "$examples_status" -eq 0 ] || check_failed "examples and output schemas (screenshots in $shots)"
for pid in "${check_pids[@]}"; do wait "$pid" || true; stop_pid "$pid"; done # stop_pid: only forgets the exited pid
check_status queue "queue mode: webhook, trigger and the 429 storm"
check_status under429 "a workflow published while its key answers 429 becomes active"
check_status shared "three trigger workflows on one Free key"

if [ "$n8n_line" = 2.41 ]; then
	step "the durable scheduler: n8n main alone, poll triggers as scheduled tasks with durable cursors"
	env "${n8n_api_env[@]}" node "$e2e_dir/unpublish-all.mjs" 2>&1 | sed -u 's/^/  /' || die "unpublishing the queue-mode workflows failed"
	stop_pid "$worker_pid"
	stop_pid "$main_pid"
	stop_pid "$redis_pid"
	durable=(N8N_SCHEDULER_ENABLED=true N8N_SCHEDULER_POLL_TRIGGERS_ENABLED=true N8N_USE_WORKFLOW_PUBLICATION_SERVICE=true
		N8N_POLLER_DURABLE_CURSORS_ENABLED=true N8N_PORT="$n8n_port" N8N_RUNNERS_BROKER_PORT="$(free_port)")
	start_durable() { # <log>
		start_n8n "$1" "${durable[@]}" start
		main_pid=${pids[-1]}
		wait_http "$n8n_url/healthz" 120 "n8n main (durable scheduler)"
	}
	start_durable "$work/durable-1.log"
	durable_check=(env "${n8n_api_env[@]}" LABEL="durable scheduler" WORKFLOWS=jobSearchE2E09 STATE_FILE="$work/durable-state.json")
	log "  the activation poll: published 3 s into a minute, then the jobs of the first polls"
	"${durable_check[@]}" ALIGN_PUBLISH=1 MIN_SECONDS=150 MIN_DUE=2 node "$e2e_dir/check-triggers.mjs" 2>&1 | sed -u 's/^/  durable | /' ||
		check_failed "durable scheduler: every job once across the activation poll"
	log "  a restart that cuts a poll off: n8n stopped while a poll reads a slow answer, then started again"
	slow_link() { node -e 'fetch(process.argv[1], { method: "POST" }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "http://127.0.0.1:$slow_port/slow-link/$1"; }
	dripping="$(grep -c 'dripped' "$work/slow-link.log" || true)"
	slow_link "slow?seconds=90&bodyMs=60000"
	for _ in $(seq 1 90); do [ "$(grep -c 'dripped' "$work/slow-link.log" || true)" -gt "$dripping" ] && break; sleep 1; done
	[ "$(grep -c 'dripped' "$work/slow-link.log" || true)" -gt "$dripping" ] || check_failed "durable scheduler: no poll started while the server was slow"
	sleep 5
	stop_pid "$main_pid"
	slow_link normal
	start_durable "$work/durable-2.log"
	log "  a slow reference server (answers over 60 s, past n8n's 45 s poll timeout); then every job once"
	"${durable_check[@]}" SLOW_LINK="http://127.0.0.1:$slow_port" SLOW_SECONDS=100 MAIN_LOG="$work/durable-2.log" MIN_SECONDS=200 MIN_DUE=8 \
		node "$e2e_dir/check-triggers.mjs" 2>&1 | sed -u 's/^/  durable | /' ||
		check_failed "durable scheduler: every job once across a restart that cut a poll off and a slow server"
fi

if grep -F -e "$n8n_key" -e "$queue_key" -e "$shared_key" -e "$storm_key" -e "$durable_key" -e "$standin_key" "$work"/*.log >/dev/null; then check_failed "an API key appears in a log"; fi
[ ${#failed[@]} -eq 0 ] || die "$(n8n_label): ${#failed[@]} check(s) failed: $(printf '%s; ' "${failed[@]}")"
log "all end-to-end checks passed in $(n8n_label)"
