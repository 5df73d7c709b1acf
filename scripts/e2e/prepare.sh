#!/usr/bin/env bash
# Installs what `npm run test:e2e` needs and takes minutes the first time: n8n 2.8.4 from the
# committed lockfile (cached) and Debian's chromium and redis-server. .ci/run starts it in the
# background at the beginning so the install overlaps the other steps; run.sh waits for the same
# locks, so running both at once installs each thing once.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=lib.sh
source "$repo/scripts/e2e/lib.sh"
ensure_debian_packages
ensure_n8n
