#!/usr/bin/env bash
# `npm run test:n8n-2.41`: installs n8n-core/n8n-workflow 2.41 here from the committed lockfile
# (once), then runs the node and trigger tests against them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ ! -f "$here/node_modules/.package-lock.json" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
	(cd "$here" && npm ci --no-audit --no-fund)
fi
cd "$here/../.."
npx jest -c "$here/jest.config.js" "$@"
