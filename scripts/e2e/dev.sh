#!/usr/bin/env bash
# `npm run dev`: the package in a real n8n editor, against the reference server: n8n 2.8.4 on
# Node 20 by default, n8n 2.41.1 on Node 24 with `npm run dev -- --n8n 2.41`.
# Builds and packs the package, starts the reference server in fast live mode (a new job every
# 10 s), installs the package into the n8n user folder .dev/n8n-<2.8|2.41> of this repository
# (ignored by git), imports a ready "Job Search API" credential pointing at the server, the first
# time also both examples/ and the owner account, starts n8n and prints the URL and the login,
# and the server's REST and MCP URLs, demo keys (Free, Pro, a Pro account with no credit) and
# admin token, each with how to use it. On every change under nodes/ or credentials/ it rebuilds,
# reinstalls and restarts n8n (reload the browser page). Ctrl-C stops everything it started; the
# user folder stays, with what was built in the editor and the server's port and demo keys, so
# the next `npm run dev` carries on where this one stopped. `npm run dev -- --clean` deletes it
# first. N8N_PORT picks the editor's port (default 5678).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=lib.sh
source "$repo/scripts/e2e/lib.sh"

use_n8n 2.8
clean=""
while [ $# -gt 0 ]; do
	case "$1" in
	--n8n) use_n8n "${2:?--n8n needs a version: ${n8n_lines[*]}}"; shift 2 ;;
	--clean) clean=1; shift ;;
	*) die "unknown argument $1 (usage: npm run dev [-- --n8n <$(IFS='|'; echo "${n8n_lines[*]}")>] [--clean])" ;;
	esac
done

# One user folder per n8n line: n8n migrates its database forward when it starts, and the older
# n8n cannot open a database the newer one has migrated.
dev_shown=".dev/n8n-$n8n_line"
dev_user="$repo/$dev_shown"
mkdir -p "$repo/.dev"
exec 6>"$dev_user.lock"
flock -n 6 || die "another npm run dev is using $dev_shown: stop it first (two n8n on one database spoil it)"
if [ -n "$clean" ] && [ -e "$dev_user" ]; then
	rm -rf "$dev_user"
	log "--clean: deleted $dev_shown (its workflows, credentials and executions)"
fi
mkdir -p "$dev_user"

work="$(mktemp -d "${TMPDIR:-/tmp}/job-search-dev.XXXXXX")"
port="${N8N_PORT:-5678}"
finish() {
	stop_all
	rm -rf "$work"
	log "stopped n8n and the reference server; your work stays in $dev_shown (npm run dev -- --clean starts from scratch)"
}
trap finish EXIT
trap 'exit 0' INT TERM

port_is_free() { node -e 'const s=require("net").createServer().once("error",()=>process.exit(1)).listen(process.argv[1],"127.0.0.1",()=>s.close())' "$1"; }
port_is_free "$port" || die "port $port is taken: set N8N_PORT to a free one"

# The reference server's port and keys, kept in the user folder so that a credential made in the
# editor with a demo key, or for the server's URL, still works after a restart. The server keeps
# nothing else: its jobs and balances start afresh each time.
server_settings="$dev_user/reference-server.env"
if [ -f "$server_settings" ]; then
	# shellcheck source=/dev/null
	source "$server_settings"
	if ! port_is_free "$server_port"; then
		log "the reference server's port $server_port is taken: it gets another; a credential you made for http://127.0.0.1:$server_port needs the new Base URL"
		server_port=""
	fi
else
	server_port="" n8n_key="$(new_key)" checker_key="$(new_key)"
	free_key="$(new_key)" pro_key="$(new_key)" broke_key="$(new_key)"
fi

# Demo accounts for trying the reference server by hand (curl, n8n's MCP Client, a second
# credential): Free and Pro with their plans' monthly credit, and a Pro account with none left.
demo_accounts() { # sets extra_accounts (read by start_server) from free_key, pro_key, broke_key
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
               (the imported credential has a Pro key of its own; use these in a second credential;
               they stay the same across restarts, balances start afresh)
  admin token: $admin_token
               curl -s $server_url/admin/accounts/demo-free -H "Authorization: Bearer $admin_token"   (an account's balance)
ACCESS
}

# Whether the owner account exists already, as after a first start: n8n's public settings say
# so, once n8n has registered its routes (a while after /healthz answers).
owner_exists() { # <n8n base url>
	local status=0
	node -e '
const deadline = Date.now() + 60_000;
(async () => {
	for (;;) {
		const settings = await fetch(`${process.argv[1]}/rest/settings`).then((r) => (r.ok ? r.json() : undefined)).catch(() => undefined);
		const firstLoad = settings?.data?.userManagement?.showSetupOnFirstLoad;
		if (typeof firstLoad === "boolean") process.exit(firstLoad ? 1 : 0);
		if (Date.now() > deadline) process.exit(2);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
})();' "$1" || status=$?
	[ "$status" != 2 ] || die "n8n did not answer $1/rest/settings within 60 s"
	return "$status"
}

ensure_n8n
log "building and packing the package"
build_and_pack
demo_accounts
prepare_workbench "$dev_user"
printf 'server_port=%s\nn8n_key=%s\nchecker_key=%s\nfree_key=%s\npro_key=%s\nbroke_key=%s\n' \
	"$server_port" "$n8n_key" "$checker_key" "$free_key" "$pro_key" "$broke_key" >"$server_settings"
# The ready credential is imported at every start (n8n replaces it, by its id), so that it holds
# this run's server URL and key.
n8n_cli import:credentials --input="$work/credentials.json" >"$work/import.log" 2>&1 || { cat "$work/import.log"; die "import:credentials failed"; }
# The examples only the first time: imported again, they would undo the changes made to them.
examples_imported="$dev_user/.examples-imported"
if [ -f "$examples_imported" ]; then
	workflows="as you left them (the examples/ were imported at the first start)"
else
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
	n8n_cli import:workflow --separate --input="$work/examples" >>"$work/import.log" 2>&1 || { cat "$work/import.log"; die "import:workflow failed"; }
	touch "$examples_imported"
	workflows="$(ls "$repo"/examples/*.json | xargs -n1 basename | tr '\n' ' ')"
fi

url="http://127.0.0.1:$port"
start_editor() {
	start_n8n "$work/n8n.log" N8N_PORT="$port" N8N_RUNNERS_BROKER_PORT="$(free_port)" start
	n8n_pid=${pids[-1]}
	wait_http "$url/healthz" 120 "n8n"
}
start_editor
owner_exists "$url" || setup_owner "$url"

cat <<EOF

  n8n editor:  $url   ($(n8n_label))
  login:       $owner_email / $owner_password
  credential:  "Job Search API (reference server)" -> $server_url (fast live mode)
  workflows:   $workflows
  your work:   $dev_shown in this repository (n8n's user folder, ignored by git): workflows,
               credentials and executions stay there when you stop; npm run dev -- --clean
               starts from scratch
  n8n log:     $work/n8n.log

$(print_service_access)

  Watching nodes/ and credentials/: a change rebuilds the package and restarts n8n.
  Ctrl-C stops everything; your work stays in $dev_shown.

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
