#!/usr/bin/env bash
# Optional end-to-end check in a REAL n8n (2.8.4, the newest that runs on Node 20): builds and
# packs this package, installs the tarball as a community package, starts the reference server,
# imports a credential and a Search Jobs -> Get Job workflow, runs it with `n8n execute` and checks
# that both nodes returned items and the key appears nowhere in n8n's output. (`n8n execute`
# needs a Manual Trigger to start from, so the polling trigger is covered by the n8n-core tests
# only.) Not part of CI: n8n itself is a 1.7 GB install. KEEP_WORK=1 keeps the logs.
#
#   N8N_DIR=/path/to/n8n-install bash scripts/real-n8n/run.sh
#
# Install n8n once in its own folder (about 4 minutes):
#   mkdir n8n-install && cd n8n-install && echo legacy-peer-deps=true > .npmrc
#   npm init -y && npm install n8n@2.8.4 @opentelemetry/api@~1.9.0 @opentelemetry/core@^2.12.1 \
#     @opentelemetry/sdk-trace-base@^2.12.1   (with overrides xlsx 0.18.5 and
#     @langchain/langgraph-checkpoint 1.0.1 in its package.json)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
: "${N8N_DIR:?set N8N_DIR to a folder where n8n@2.8.4 is installed (see the header of this script)}"
work="$(mktemp -d)"
port="${PORT:-18787}"
trap 'kill "${server_pid:-0}" 2>/dev/null || true; [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT

cd "$repo"
npm run --silent build >/dev/null
npm pack --silent --pack-destination "$work" >/dev/null
pkg="$work/n8n-user/.n8n/nodes/node_modules/n8n-nodes-job-search"
mkdir -p "$pkg"
tar xzf "$work"/n8n-nodes-job-search-*.tgz -C "$pkg" --strip-components=1

key="gm_$(node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))')"
printf '{"accounts":[{"id":"e2e","plan":"pro","poolMicrocents":2900000000,"packMicrocents":0,"keys":["%s"]}]}' "$key" >"$work/accounts.json"
printf '[{"id":"jobSearchE2E","name":"Job Search (reference server)","type":"jobSearchApi","data":{"apiKey":"%s","baseUrl":"http://127.0.0.1:%s","mcpUrl":"http://127.0.0.1:%s/mcp"}}]' \
	"$key" "$port" "$port" >"$work/credentials.json"
node -r ts-node/register/transpile-only server/cli.ts --port "$port" --accounts "$work/accounts.json" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 50); do grep -q '^listening on' "$work/server.log" && break; sleep 0.2; done

export N8N_USER_FOLDER="$work/n8n-user" DB_TYPE=sqlite N8N_DIAGNOSTICS_ENABLED=false \
	N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_TEMPLATES_ENABLED=false \
	N8N_VERIFIED_PACKAGES_ENABLED=false N8N_LISTEN_ADDRESS=127.0.0.1 N8N_LOG_FORMAT=json
cd "$N8N_DIR"
npx n8n export:nodes --output="$work/nodes.json" >/dev/null 2>&1
node -e '
const types = require(process.argv[1]).map((t) => t.name);
for (const t of ["jobSearch", "jobSearchTrigger", "jobSearchTool"]) {
	if (!types.includes(`n8n-nodes-job-search.${t}`)) { console.error(`n8n did not load ${t}`); process.exit(1); }
}
console.log("real n8n loaded jobSearch, jobSearchTrigger and the jobSearchTool AI tool variant");' "$work/nodes.json"
npx n8n import:credentials --input="$work/credentials.json" >/dev/null 2>&1
npx n8n import:workflow --input="$here/workflow.json" >/dev/null 2>&1
check() { # <workflow id> <node names...>: runs the workflow, checks each node returned items and no key leaked
	local id="$1"; shift
	npx n8n execute --id="$id" --rawOutput >"$work/execute-$id.log" 2>&1 || true
	node -e '
const fs = require("fs");
const [log, key, ...names] = [fs.readFileSync(process.argv[1], "utf8"), ...process.argv.slice(2)];
if (log.includes(key)) { console.error("the API key appears in n8n output"); process.exit(1); }
for (const line of log.split("\n")) {
	let entry; try { entry = JSON.parse(line); } catch { continue; }
	let run; try { run = JSON.parse(entry.message); } catch { continue; }
	const result = (run.data ?? run).resultData;
	if (!result) continue;
	if (result.error) { console.error("execution failed:", result.error.message); process.exit(1); }
	for (const name of names) {
		const items = result.runData[name]?.[0]?.data?.main?.[0] ?? [];
		if (items.length === 0) { console.error(`${name} returned no items`); process.exit(1); }
		console.log(`${name}: ${items.length} items, first: ${items[0].json.uid} ${items[0].json.title}`);
	}
	process.exit(0);
}
console.error("no execution result in n8n output"); process.exit(1);' "$work/execute-$id.log" "$key" "$@"
}
check jobSearchE2E01 "Search Jobs" "Get Job"
echo "real n8n end-to-end: ok"
