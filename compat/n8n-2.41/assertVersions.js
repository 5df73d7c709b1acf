// Fails the run if the mapping ever stops taking effect and the suites quietly test 2.8 again.
const expected = require('./package.json').dependencies;
for (const name of ['n8n-core', 'n8n-workflow']) {
	const found = require(`${name}/package.json`).version;
	if (found !== expected[name]) throw new Error(`${name} ${found} is loaded, expected ${expected[name]}`);
}
