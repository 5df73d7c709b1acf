import { clientLookup } from './lookup';

/** Get Client Activity: proposals, the client's last activity, interviews and invites (premium). */
export const { toolDescription, keyedByJobUid, prepare, plannedCall, send } = clientLookup('getActivity', 'get_client_activity');
