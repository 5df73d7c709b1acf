import { clientLookup } from './lookup';

/** Get Client History: the client's past work and feedback from freelancers (premium). */
export const { toolDescription, keyedByJobUid, prepare, plannedCall, send } = clientLookup('getHistory', 'get_client_history');
