#!/usr/bin/env bash
# `npm run dev`: the package in a real n8n editor, against the reference server: n8n 2.8.4 on
# Node 20 by default, n8n 2.41.1 on Node 24 with `npm run dev -- --n8n 2.41`.
# Builds and packs the package, starts the reference server in fast live mode (a new job every
# 10 s), installs the package into a fresh n8n user folder, imports a ready "Job Search API"
# credential pointing at the server and both examples/, creates the owner account, starts n8n
# and prints the URL and the login, and the server's REST and MCP URLs, demo keys (Free, Pro,
# a Pro account with no credit) and admin token, each with how to use it. On every change under nodes/ or credentials/ it rebuilds,
# reinstalls and restarts n8n (reload the browser page). Ctrl-C stops everything it started and
# removes the user folder. N8N_PORT picks the editor's port (default 5678).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=lib.sh
source "$repo/scripts/e2e/lib.sh"

use_n8n 2.8
while [ $# -gt 0 ]; do
	case "$1" in
	--n8n) use_n8n "${2:?--n8n needs a version: ${n8n_lines[*]}}"; shift 2 ;;
	*) die "unknown argument $1 (usage: npm run dev [-- --n8n <${n8n_lines[*]// /|}>])" ;;
	esac
done

work="$(mktemp -d "${TMPDIR:-/tmp}/job-search-dev.XXXXXX")"
port="${N8N_PORT:-5678}"
finish() {
	stop_all
	rm -rf "$work"
	log "stopped n8n and the reference server"
}
trap finish EXIT
trap 'exit 0' INT TERM

node -e 'const s=require("net").createServer().once("error",()=>process.exit(1)).listen(process.argv[1],"127.0.0.1",()=>s.close())' "$port" ||
	die "port $port is taken: set N8N_PORT to a free one"

# Demo accounts for trying the reference server by hand (curl, n8n's MCP Client, a second
# credential): Free and Pro with their plans' monthly credit, and a Pro account with none left.
demo_accounts() { # sets extra_accounts (read by start_server), free_key, pro_key, broke_key
	free_key="$(new_key)" pro_key="$(new_key)" broke_key="$(new_key)"
	extra_accounts=",{\"id\":\"demo-free\",\"plan\":\"free\",\"keys\":[\"$free_key\"]}"
	extra_accounts+=",{\"id\":\"demo-pro\",\"plan\":\"pro\",\"keys\":[\"$pro_key\"]}"
	extra_accounts+=",{\"id\":\"demo-broke\",\"plan\":\"pro\",\"poolMicrocents\":0,\"packMicrocents\":0,\"keys\":[\"$broke_key\"]}"
}

# What a developer needs to reach the reference server without n8n, each with one line on its use.
print_service_access() {
	local admin_token
	admin_token="$(sed -n 's/^admin token: //p' "$work/server.log")"
	cat <<ACCESS
  reference server (fast live mode: a new job every 10 s)
  REST:        $server_url/v1/<tool>, e.g.
               curl -s -X POST $server_url/v1/search_jobs -H "Authorization: Bearer $pro_key" -H "Content-Type: application/json" -d '{"limit": 2}'
  MCP URL:     $server_url/mcp
               in n8n's MCP Client (or MCP Client Tool): this as MCP Endpoint URL, Server Transport "HTTP Streamable",
               Authentication "Bearer Auth" with a demo key as the token
  demo keys:   Free  (\$5 credit, 10 requests a minute, no premium: Get Client Activity is a 403)  $free_key
               Pro   (\$29 credit, 60 requests a minute, premium)                                    $pro_key
               Broke (Pro with no credit left: every billed call is a 402)                          $broke_key
               (the imported credential has a Pro key of its own; use these in a second credential)
  admin token: $admin_token
               curl -s $server_url/admin/accounts/demo-free -H "Authorization: Bearer $admin_token"   (an account's balance)
ACCESS
}

ensure_n8n
log "building and packing the package"
build_and_pack
demo_accounts
prepare_workbench
mkdir -p "$work/examples"
for example in "$repo"/examples/*.json; do
	node -e '
const [file, out] = process.argv.slice(1);
const workflow = JSON.parse(require("fs").readFileSync(file, "utf8"));
for (const node of workflow.nodes) {
	if (node.credentials?.jobSearchApi) node.credentials.jobSearchApi = { id: "jobSearchLocal", name: "Job Search API (reference server)" };
}
require("fs").writeFileSync(out, JSON.stringify(workflow));' "$example" "$work/examples/$(basename "$example")"
done
n8n_cli import:credentials --input="$work/credentials.json" >"$work/import.log" 2>&1 || { cat "$work/import.log"; die "import:credentials failed"; }
n8n_cli import:workflow --separate --input="$work/examples" >>"$work/import.log" 2>&1 || { cat "$work/import.log"; die "import:workflow failed"; }

url="http://127.0.0.1:$port"
start_editor() {
	start_n8n "$work/n8n.log" N8N_PORT="$port" N8N_RUNNERS_BROKER_PORT="$(free_port)" start
	n8n_pid=${pids[-1]}
	wait_http "$url/healthz" 120 "n8n"
}
start_editor
setup_owner "$url"

cat <<EOF

  n8n editor:  $url   ($(n8n_label))
  login:       $owner_email / $owner_password
  credential:  "Job Search API (reference server)" -> $server_url (fast live mode)
  workflows:   $(ls "$repo"/examples/*.json | xargs -n1 basename | tr '\n' ' ')
  n8n log:     $work/n8n.log

$(print_service_access)

  Watching nodes/ and credentials/: a change rebuilds the package and restarts n8n.
  Ctrl-C stops everything.

EOF

stamp="$work/built"
touch "$stamp"
while true; do
	sleep 1
	changed="$(find "$repo/nodes" "$repo/credentials" -type f -newer "$stamp" -print -quit 2>/dev/null || true)"
	[ -n "$changed" ] || continue
	sleep 0.5 # let an editor finish writing the other files of one save
	touch "$stamp"
	log "changed: ${changed#"$repo"/}; rebuilding"
	rm -f "$work"/n8n-nodes-job-search-*.tgz
	if ! (build_and_pack) >"$work/build.log" 2>&1; then
		cat "$work/build.log"
		log "build failed; n8n keeps the previous build. Fix and save again."
		continue
	fi
	tarball="$(ls "$work"/n8n-nodes-job-search-*.tgz)"
	stop_pid "$n8n_pid"
	install_package "$user"
	start_editor
	log "n8n restarted with the new build: reload $url"
done
