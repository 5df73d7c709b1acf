#!/usr/bin/env bash
# `npm run soak`: the property tests with many more runs from a fresh seed each (printed, with the
# command that replays it). FACTOR multiplies every property's run count (default 50).
set -euo pipefail
cd "$(dirname "$0")/.."
export PROPERTY_SOAK="${FACTOR:-50}"
# A property runs FACTOR times as many cases as in CI, so jest's limit per test (which only names
# a test that hangs: jest.config.js) grows as much. The files are named by patterns that match
# them in either suite (properties.test.ts or properties.long.test.ts).
npx jest --testTimeout="$((600000 * PROPERTY_SOAK))" 'test/trigger/properties\.' 'test/filters/property\.' 'test/filters/bounds\.' 'test/server/jobs\.test' "$@"
