/**
 * The package version for the User-Agent. Shipped node code cannot read package.json at run
 * time, so it is kept by hand; a test fails when it drifts from package.json.
 */
export const PACKAGE_NAME = 'n8n-nodes-job-search';
export const PACKAGE_VERSION = '0.1.0';
export const USER_AGENT = `${PACKAGE_NAME}/${PACKAGE_VERSION}`;
