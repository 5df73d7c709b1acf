#!/usr/bin/env bash
# Installs what `npm run test:e2e` needs and takes minutes the first time: Debian's chromium and
# redis-server, n8n 2.8.4, and Node 24 with n8n 2.41.1 (each n8n from its committed lockfile,
# cached). .ci/run starts it in the background at the beginning so the installs overlap the
# other steps; run.sh waits for the same locks, so running both at once installs each thing once.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=lib.sh
source "$repo/scripts/e2e/lib.sh"
ensure_debian_packages
for line in "${n8n_lines[@]}"; do
	use_n8n "$line"
	ensure_n8n
done
