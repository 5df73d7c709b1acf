import { parseCommandLine, UsageError } from '../../server/cli';
import { resolveLiveOptions } from '../../server/liveOptions';

describe('the server command line', () => {
	const live = (args: string[]) => {
		const parsed = parseCommandLine(args);
		if (parsed.help) throw new Error('help');
		return parsed.options.live;
	};

	it('maps each live shape flag to its LiveOptions field', () => {
		expect(
			live([
				'--live',
				'--out-of-order',
				'--postings-per-hour',
				'1500',
				'--poisson',
				'--approximate-totals',
				'--unstable-tie-order',
				'--burst',
				'2026-11-20T14:00:00.000Z,3000,120000',
				'--burst',
				'1795190400000,10,0',
				'--repost-share',
				'0.05',
				'--round-created-at-ms',
				'1000',
				'--skew-ms=-60000',
			]),
		).toEqual({
			model: 'out-of-order',
			postingsPerHour: 1500,
			arrivals: 'poisson',
			approximateTotals: true,
			unstableTieOrder: true,
			bursts: [
				{ at: '2026-11-20T14:00:00.000Z', count: 3000, spreadMs: 120_000 },
				{ at: 1795190400000, count: 10, spreadMs: 0 },
			],
			repostShare: 0.05,
			roundCreatedAtMs: 1000,
			skewMs: -60_000,
		});
	});

	it('leaves every shape off without its flag, and adds them to --live-fast too', () => {
		expect(live(['--live'])).toEqual({ model: 'batch' });
		expect(live([])).toBeUndefined();
		expect(live(['--live-fast', '--repost-share', '0.1'])).toMatchObject({ postingsPerHour: 360, repostShare: 0.1 });
	});

	it.each([
		[['--live', '--skew-ms', 'soon'], /--skew-ms must be a number, got "soon"/],
		[['--live', '--postings-per-hour', ''], /--postings-per-hour must be a number, got ""/],
		[['--live', '--burst', '2026-11-20T14:00:00Z,3000'], /--burst takes <at>,<count>,<spreadMs>, got "2026-11-20T14:00:00Z,3000"/],
		[['--live', '--burst', '0,many,1000'], /--burst count must be a number, got "many"/],
		[['--burst', '0,10,1000'], /--burst shapes live mode: add --live/],
		[['--approximate-totals'], /--approximate-totals shapes live mode: add --live/],
		[['--live', '--skew-ms', '-60000'], /--skew-ms' argument is ambiguous/],
	])('refuses %j, naming the flag', (args, message) => {
		expect(() => parseCommandLine(args)).toThrow(UsageError);
		expect(() => parseCommandLine(args)).toThrow(message);
	});

	it('leaves the ranges to the live options, which name the field', () => {
		expect(() => resolveLiveOptions(live(['--live', '--burst', 'noon,3000,60000'])!)).toThrow(/live option bursts\[0\]\.at must be epoch milliseconds or an ISO 8601 date/);
	});
});
