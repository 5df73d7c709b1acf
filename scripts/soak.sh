#!/usr/bin/env bash
# `npm run soak`: the property tests with many more runs from a fresh seed each (printed, with the
# command that replays it). FACTOR multiplies every property's run count (default 50).
set -euo pipefail
cd "$(dirname "$0")/.."
export PROPERTY_SOAK="${FACTOR:-50}"
# A property runs FACTOR times as many cases as in CI, so it may take FACTOR times CI's 30 s.
npx jest --testTimeout="$((30000 * PROPERTY_SOAK))" test/trigger/properties.test.ts test/filters/property.test.ts test/filters/bounds.test.ts test/server/jobs.test.ts "$@"
