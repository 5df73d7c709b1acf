// Ends every jest run with one plain line, "jest: N passed, N failed", that CI logs and people
// can read without jest's formatting.
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		const tail = skipped > 0 ? `, ${skipped} skipped` : '';
		process.stdout.write(`jest: ${results.numPassedTests} passed, ${results.numFailedTests} failed${tail}\n`);
	}
}

module.exports = SummaryReporter;
