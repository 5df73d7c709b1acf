/** Where a job's page lives: the service's own job links are this plus the uid. */
export const JOB_URL_PREFIX = 'https://www.upwork.com/jobs/~02';

/**
 * A job link: any http(s) address whose last "~" is followed by the uid, with or without the
 * "02" the service puts before it (".../jobs/~021955020056847176693", ".../~1955020056847176693/").
 */
export const JOB_LINK_PATTERN = '^\\s*https?://\\S*~(?:0[12])?[0-9]+(?:[/?#]\\S*)?\\s*$';

/** The uid inside a job link, as the one group n8n's extractValue expects. */
export const JOB_LINK_UID_PATTERN = '~(?:0[12])?([0-9]+)(?:[/?#]|\\s*$)';
