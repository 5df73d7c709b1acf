export { simplifyJob } from './simplifyJob';
export { errorItem, usageFields, withUsage } from './items';
