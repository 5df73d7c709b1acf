# Shared by scripts/e2e/run.sh (`npm run test:e2e`) and scripts/e2e/dev.sh (`npm run dev`):
# the cached n8n 2.8.4 install, Debian packages, the packed package, the reference server and
# n8n processes, each started in the background and stopped by its own pid.
# Source it with `repo` set to the repository root.

e2e_dir="$repo/scripts/e2e"
pids=()   # every process we start, stopped in reverse order by stop_all

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
die() { log "FAIL: $*" >&2; exit 1; }

# Stops what we started one by one, newest first (n8n before Redis and the server it talks to):
# SIGTERM, up to 15 s to exit, then SIGKILL. Never by name.
stop_all() {
	local i
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do stop_one "${pids[$i]}"; done
	pids=()
}
stop_one() {
	kill -TERM "$1" 2>/dev/null || return 0
	for _ in $(seq 1 150); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
	kill -KILL "$1" 2>/dev/null || true
}

stop_pid() { # <pid>: stops one process we started
	local pid="$1" kept=() p
	stop_one "$pid"
	for p in "${pids[@]}"; do [ "$p" = "$pid" ] || kept+=("$p"); done
	pids=("${kept[@]}")
}

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# Debian's chromium and redis-server, installed when missing (CI machines start without them).
ensure_debian_packages() {
	mkdir -p "$n8n_cache_root"
	exec 8>"$n8n_cache_root/.apt.lock"
	flock 8 # one install at a time (.ci/run starts prepare.sh in the background)
	local missing=()
	command -v chromium >/dev/null || missing+=(chromium)
	command -v redis-server >/dev/null || missing+=(redis-server)
	if [ ${#missing[@]} -eq 0 ]; then exec 8>&-; return 0; fi
	[ "$(id -u)" = 0 ] || die "missing ${missing[*]}: install them with: sudo apt-get install -y ${missing[*]}"
	log "installing ${missing[*]} from Debian"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
	exec 8>&-
}

# n8n 2.8.4 from scripts/e2e/n8n's committed lockfile, installed once into a cache folder keyed by
# the hash of package.json, package-lock.json and .npmrc; later runs reuse it. `npm install`, not
# `npm ci`: npm ci rejects a lockfile that lacks other platforms' optional packages.
n8n_cache_root="${JOB_SEARCH_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-job-search}"
n8n_install_dir() {
	local hash
	hash="$(cat "$e2e_dir/n8n/package.json" "$e2e_dir/n8n/package-lock.json" "$e2e_dir/n8n/.npmrc" | sha256sum | cut -c1-16)"
	echo "$n8n_cache_root/n8n-2.8.4-$hash"
}
ensure_n8n() { # sets N8N_DIR and n8n_bin
	N8N_DIR="$(n8n_install_dir)"
	n8n_bin="$N8N_DIR/node_modules/n8n/bin/n8n"
	mkdir -p "$n8n_cache_root"
	exec 9>"$n8n_cache_root/.install.lock"
	flock 9 # waits for an install already under way (.ci/run starts prepare.sh in the background)
	if [ -f "$N8N_DIR/.installed" ] && [ -f "$n8n_bin" ]; then
		exec 9>&-
		log "n8n 2.8.4: cached in $N8N_DIR"
		return 0
	fi
	log "n8n 2.8.4: installing into $N8N_DIR from the committed lockfile (a few minutes, once)"
	rm -rf "$N8N_DIR.partial"
	mkdir -p "$N8N_DIR.partial"
	cp "$e2e_dir/n8n/package.json" "$e2e_dir/n8n/package-lock.json" "$e2e_dir/n8n/.npmrc" "$N8N_DIR.partial/"
	# Without the npm_config_* that `npm run` exports (this repo's ignore-scripts=true among them):
	# n8n needs its install scripts (sqlite3's native module).
	(cd "$N8N_DIR.partial" && env $(env | grep -o '^npm_config_[^=]*' | sed 's/^/-u /') \
		npm install --no-audit --no-fund --ignore-scripts=false --loglevel=error >install.log 2>&1) ||
		{ tail -20 "$N8N_DIR.partial/install.log" >&2; die "n8n install failed (log: $N8N_DIR.partial/install.log)"; }
	touch "$N8N_DIR.partial/.installed"
	rm -rf "$N8N_DIR"
	mv "$N8N_DIR.partial" "$N8N_DIR"
	exec 9>&-
	log "n8n 2.8.4: installed"
}

# Builds and packs this package into $work.
build_and_pack() {
	(cd "$repo" && npm run --silent build >/dev/null && npm pack --silent --pack-destination "$work" >/dev/null)
	tarball="$(ls "$work"/n8n-nodes-job-search-*.tgz)"
}

# Installs the tarball into a user folder with the README's own recipe for a local build
# (install-recipe.mjs takes it from README.md), run as a reader runs it: HOME is the user folder,
# so ~/.n8n/nodes is the folder this n8n loads, and none of the npm_config_* that `npm run`
# exports (this repository's ignore-scripts=true among them) applies. npm's cache and user
# config stay the machine's (registry settings). A second run, after a rebuild, replaces the
# package, as the README says.
install_package() { # <user folder>
	local user_folder="$1" commands cache userconfig
	commands="$(node "$e2e_dir/install-recipe.mjs" "$repo/README.md" "$tarball")" || die "could not take the install recipe from README.md"
	cache="$(npm config get cache)"
	userconfig="$(npm config get userconfig)"
	mkdir -p "$user_folder"
	(cd "$user_folder" && env $(env | grep -o '^npm_config_[^=]*' | sed 's/^/-u /') \
		HOME="$user_folder" npm_config_cache="$cache" npm_config_userconfig="$userconfig" \
		bash -euo pipefail -c "$commands") >"$work/install-recipe.log" 2>&1 ||
		{ cat "$work/install-recipe.log" >&2; die "the README's install recipe failed (commands: $commands)"; }
	local nodes="$user_folder/.n8n/nodes/node_modules"
	[ -f "$nodes/n8n-nodes-job-search/package.json" ] || die "the README's install recipe did not put the package into $nodes"
	[ ! -e "$nodes/n8n-workflow" ] || die "the README's install recipe put a second n8n-workflow into $nodes"
}

# The reference server on a free port with two accounts: "n8n" (the key n8n's credential holds)
# and "checker" (the test's own reads, so they never touch n8n's rate limit or credit), plus
# the accounts in $extra_accounts (",{...},{...}"; dev.sh's demo accounts).
start_server() { # [server options...]; sets server_port, server_url, n8n_key, checker_key
	server_port="$(free_port)"
	server_url="http://127.0.0.1:$server_port"
	n8n_key="gm_$(node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))')"
	checker_key="gm_$(node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))')"
	printf '{"accounts":[{"id":"n8n","plan":"pro","poolMicrocents":2900000000,"packMicrocents":0,"keys":["%s"]},{"id":"checker","plan":"pro","poolMicrocents":2900000000,"packMicrocents":0,"keys":["%s"]}%s]}' \
		"$n8n_key" "$checker_key" "${extra_accounts:-}" >"$work/accounts.json"
	(cd "$repo" && exec node -r ts-node/register/transpile-only server/cli.ts --port "$server_port" --accounts "$work/accounts.json" "$@") \
		>"$work/server.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 1 150); do grep -q '^listening on' "$work/server.log" && return 0; sleep 0.2; done
	cat "$work/server.log" >&2
	die "reference server did not start"
}

# The "Job Search API" credential n8n imports, pointing at the reference server. It keeps the
# "mcpUrl" that credentials saved by earlier versions hold, so the e2e shows they still work.
write_credential() { # <file>
	printf '[{"id":"jobSearchLocal","name":"Job Search API (reference server)","type":"jobSearchApi","data":{"apiKey":"%s","baseUrl":"%s","mcpUrl":"%s/mcp"}}]' \
		"$n8n_key" "$server_url" "$server_url" >"$1"
}

# Environment of every n8n process of one user folder.
n8n_env() { # <user folder>
	export N8N_USER_FOLDER="$1" DB_TYPE=sqlite N8N_DIAGNOSTICS_ENABLED=false \
		N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_TEMPLATES_ENABLED=false \
		N8N_VERIFIED_PACKAGES_ENABLED=false N8N_LISTEN_ADDRESS=127.0.0.1 N8N_HOST=127.0.0.1 \
		N8N_SECURE_COOKIE=false N8N_PERSONALIZATION_ENABLED=false N8N_HIRING_BANNER_ENABLED=false \
		N8N_COMMUNITY_PACKAGES_ENABLED=true N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=false
	unset N8N_PORT N8N_RUNNERS_BROKER_PORT
}

n8n_cli() { node "$n8n_bin" "$@"; }

# A fresh n8n user folder with the packed package installed, the reference server in fast live
# mode and a credential for it written to $work/credentials.json (what test:e2e and dev share).
prepare_workbench() {
	user="$work/user"
	install_package "$user"
	n8n_env "$user"
	start_server --live-fast
	log "reference server (fast live mode) at $server_url"
	write_credential "$work/credentials.json"
}

# Starts `n8n <command>` in the background with a log; extra env as NAME=value before the command.
start_n8n() { # <log file> [NAME=value...] <command> [args...]
	local logfile="$1"; shift
	(
		while [[ "${1:-}" == *=* ]]; do export "${1?}"; shift; done
		exec node "$n8n_bin" "$@"
	) >"$logfile" 2>&1 &
	pids+=($!)
}

wait_http() { # <url> <seconds> <what>: waits for a 200 (node's fetch: no curl needed)
	node -e '
const [url, seconds] = [process.argv[1], Number(process.argv[2])];
const deadline = Date.now() + seconds * 1000;
(async () => {
	for (;;) {
		try { if ((await fetch(url)).ok) return; } catch {}
		if (Date.now() > deadline) process.exit(1);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
})();' "$1" "$2" || die "$3 did not answer $1 within $2 s"
}

# The owner account, created through n8n's REST API as the setup screen does.
owner_email="owner@example.com"
owner_password="JobSearch-e2e-1"
setup_owner() { # <n8n base url>: retried while n8n registers its routes after /healthz answers
	node -e '
const [url, email, password] = process.argv.slice(1);
const deadline = Date.now() + 60_000;
(async () => {
	for (;;) {
		const response = await fetch(`${url}/rest/owner/setup`, {
			method: "POST",
			headers: { "content-type": "application/json", "browser-id": "job-search-setup" },
			body: JSON.stringify({ email, firstName: "Job", lastName: "Search", password }),
		}).catch(() => undefined);
		if (response?.ok) return;
		if (Date.now() > deadline) { console.error(`owner setup: ${response?.status} ${await response?.text()}`); process.exit(1); }
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
})();' "$1" "$owner_email" "$owner_password" || die "owner setup failed at $1"
}
