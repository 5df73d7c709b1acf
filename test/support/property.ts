import type { Parameters as FcParameters } from 'fast-check';

/**
 * Settings for every fast-check property: a fixed seed by default, so CI is never flaky and any
 * failure replays as it is. `npm run soak` sets PROPERTY_SOAK=<factor> for many more runs from a
 * fresh seed, printed first; PROPERTY_SEED=<seed> replays one. A counterexample found either way
 * becomes a named regression test next to the property.
 */
export function propertyParameters<T>(numRuns: number, fixedSeed: number): FcParameters<T> {
	const soak = Number(process.env.PROPERTY_SOAK ?? 0);
	const seedFromEnv = process.env.PROPERTY_SEED === undefined ? undefined : Number(process.env.PROPERTY_SEED);
	if (!(soak > 0)) return { seed: seedFromEnv ?? fixedSeed, numRuns };
	const seed = seedFromEnv ?? (Date.now() ^ (process.pid << 8)) >>> 0;
	process.stdout.write(`property soak: seed ${seed}, ${numRuns * soak} runs (replay with PROPERTY_SEED=${seed})\n`);
	return { seed, numRuns: numRuns * soak };
}
