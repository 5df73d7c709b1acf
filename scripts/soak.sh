#!/usr/bin/env bash
# `npm run soak`: the property tests with many more runs from a fresh seed each (printed, with the
# command that replays it). FACTOR multiplies every property's run count (default 50).
set -euo pipefail
cd "$(dirname "$0")/.."
export PROPERTY_SOAK="${FACTOR:-50}"
npx jest test/trigger/properties.test.ts test/filters/property.test.ts test/filters/bounds.test.ts test/server/jobs.test.ts "$@"
