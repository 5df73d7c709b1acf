import { createHash, randomBytes, timingSafeEqual } from 'crypto';
import type { Plan } from './model';
import { PLANS } from './plans';

export interface AccountSeed {
	id: string;
	plan: Plan;
	poolMicrocents?: number;
	packMicrocents?: number;
	keys?: string[];
	revokedKeys?: string[];
}

export interface CallLogEntry {
	at: number;
	tool: string;
	transport: 'rest' | 'mcp';
	status: number;
	consumedMicrocents: number;
	/** A name for the key that is safe to show: never the key, never its hash. */
	keyId: string;
}

export interface Account {
	id: string;
	plan: Plan;
	poolMicrocents: number;
	packMicrocents: number;
	callLog: CallLogEntry[];
}

export interface KeyRecord {
	id: string;
	accountId: string;
	hash: Buffer;
	revoked: boolean;
}

const KEY_SHAPE = /^gm_[A-Za-z0-9_-]+$/;

export function generateKey(): string {
	return `gm_${randomBytes(32).toString('base64url')}`;
}

function sha256(text: string): Buffer {
	return createHash('sha256').update(text, 'utf8').digest();
}

function assertBalance(name: string, value: number | undefined): void {
	if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
		throw new Error(`${name} must be a non-negative integer number of microcents`);
	}
}

export class KeyLimitError extends Error {}

/**
 * Accounts, their balances and their keys. Only SHA-256 hashes of keys are kept; a presented key
 * is hashed and compared in constant time with the stored hash.
 */
export class AccountBook {
	private readonly accounts = new Map<string, Account>();
	private readonly keysByHash = new Map<string, KeyRecord>();
	private keySerial = 0;
	private accountSerial = 0;

	createAccount(seed: Omit<AccountSeed, 'id'> & { id?: string }): Account {
		if (!PLANS[seed.plan]) throw new Error(`unknown plan ${String(seed.plan)}; use free, pro or enterprise`);
		assertBalance('poolMicrocents', seed.poolMicrocents);
		assertBalance('packMicrocents', seed.packMicrocents);
		const id = seed.id ?? `acct_${++this.accountSerial}`;
		if (this.accounts.has(id)) throw new Error(`account ${id} already exists`);
		const account: Account = {
			id,
			plan: seed.plan,
			poolMicrocents: seed.poolMicrocents ?? PLANS[seed.plan].poolMicrocents,
			packMicrocents: seed.packMicrocents ?? 0,
			callLog: [],
		};
		this.accounts.set(id, account);
		for (const key of seed.keys ?? []) this.addKey(account, key, false);
		for (const key of seed.revokedKeys ?? []) this.addKey(account, key, true);
		return account;
	}

	get(accountId: string): Account | undefined {
		return this.accounts.get(accountId);
	}

	/** Issues a new key, shown to the caller once; plans cap how many active keys an account holds. */
	issueKey(accountId: string): string {
		const account = this.accounts.get(accountId);
		if (!account) throw new Error(`no account ${accountId}`);
		const active = [...this.keysByHash.values()].filter((k) => k.accountId === accountId && !k.revoked).length;
		if (active >= PLANS[account.plan].maxKeys) {
			throw new KeyLimitError(`the ${account.plan} plan allows ${PLANS[account.plan].maxKeys} active key(s); revoke one first`);
		}
		const key = generateKey();
		this.addKey(account, key, false);
		return key;
	}

	/** Returns whether a live key was revoked. */
	revokeKey(key: string): boolean {
		const record = this.keysByHash.get(sha256(key).toString('hex'));
		if (!record || record.revoked) return false;
		record.revoked = true;
		return true;
	}

	/** The safe name (`key_N`) of a key this book holds, revoked or not. */
	keyIdOf(key: string): string | undefined {
		return this.keysByHash.get(sha256(key).toString('hex'))?.id;
	}

	/** The key's record when it is well-formed, known and not revoked. */
	authenticate(presented: string | undefined): KeyRecord | undefined {
		if (!presented || !KEY_SHAPE.test(presented)) return undefined;
		const hash = sha256(presented);
		const record = this.keysByHash.get(hash.toString('hex'));
		if (!record || !timingSafeEqual(record.hash, hash) || record.revoked) return undefined;
		return record;
	}

	private addKey(account: Account, key: string, revoked: boolean): void {
		if (!KEY_SHAPE.test(key)) throw new Error(`account ${account.id}: a key must be gm_ followed by base64url characters`);
		const hash = sha256(key);
		if (this.keysByHash.has(hash.toString('hex'))) throw new Error(`account ${account.id}: a key is listed twice`);
		this.keysByHash.set(hash.toString('hex'), { id: `key_${++this.keySerial}`, accountId: account.id, hash, revoked });
	}
}

/**
 * Charges min(cost, balance), pool first, then packs (docs/service.md#billing). Synchronous, so no other
 * call can interleave between reading and writing the balance.
 */
export function charge(account: Account, costMicrocents: number): number {
	const consumed = Math.min(costMicrocents, account.poolMicrocents + account.packMicrocents);
	const fromPool = Math.min(consumed, account.poolMicrocents);
	account.poolMicrocents -= fromPool;
	account.packMicrocents -= consumed - fromPool;
	return consumed;
}

export function balanceOf(account: Account): number {
	return account.poolMicrocents + account.packMicrocents;
}
