import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

/**
 * n8n-core's SSH client manager starts a one-minute cleanup interval the first time a node
 * context is built, which would keep jest and the demo alive after the work is done. Unref it:
 * it still runs while anything else does. Creating the singleton here first means every later
 * context reuses the unref'd one. (@n8n/di comes with n8n-core.)
 */
export function releaseCoreTimers(): void {
	const manager = Container.get(SSHClientsManager) as unknown as { cleanupTimer?: { unref?: () => void } };
	manager.cleanupTimer?.unref?.();
}
