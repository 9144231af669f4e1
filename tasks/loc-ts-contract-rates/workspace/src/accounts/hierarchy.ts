import { Account, Contract, Subscription } from '../domain/account';
import { DataError, NotFoundError } from '../domain/errors';
import { AccountFile, RawAccount } from '../adapters/accountRepo';
import { normalizeAccount } from './normalize';

function covers(contract: Contract, day: string): boolean {
  return contract.from <= day && (contract.until === undefined || day <= contract.until);
}

/** Every account of the file, normalized, with the parent links between them. */
export class AccountDirectory {
  private readonly accounts = new Map<string, Account>();
  private readonly subscriptionOwner = new Map<string, string>();

  constructor(file: AccountFile) {
    const raw = new Map<string, RawAccount>();
    for (const a of file.accounts) {
      if (raw.has(a.id)) throw new DataError('accounts.json', `account ${a.id} is listed twice`);
      raw.set(a.id, a);
    }
    const visiting = new Set<string>();
    const build = (id: string): Account => {
      const done = this.accounts.get(id);
      if (done) return done;
      const r = raw.get(id);
      if (!r) throw new NotFoundError('account', id);
      if (visiting.has(id)) throw new DataError('accounts.json', `account ${id} is its own ancestor`);
      visiting.add(id);
      const parent = r.parent ? build(r.parent) : undefined;
      visiting.delete(id);
      const account = normalizeAccount(r, file.defaults, parent);
      this.accounts.set(id, account);
      return account;
    };
    for (const id of raw.keys()) build(id);
    for (const account of this.accounts.values()) {
      for (const s of account.subscriptions) {
        if (this.subscriptionOwner.has(s.id)) throw new DataError('accounts.json', `subscription ${s.id} appears twice`);
        this.subscriptionOwner.set(s.id, account.id);
      }
    }
  }

  get(id: string): Account {
    const a = this.accounts.get(id);
    if (!a) throw new NotFoundError('account', id);
    return a;
  }

  has(id: string): boolean {
    return this.accounts.has(id);
  }

  all(): Account[] {
    return [...this.accounts.values()];
  }

  subscription(id: string): { account: Account; subscription: Subscription } {
    const owner = this.subscriptionOwner.get(id);
    if (!owner) throw new NotFoundError('subscription', id);
    const account = this.get(owner);
    return { account, subscription: account.subscriptions.find((s) => s.id === id) as Subscription };
  }

  /** The account and its ancestors, nearest first. */
  lineage(id: string): Account[] {
    const out: Account[] = [];
    for (let a: Account | undefined = this.get(id); a; a = a.parent ? this.get(a.parent) : undefined) out.push(a);
    return out;
  }

  /** The contract in force for an account on a day: its own, else the nearest ancestor's. */
  contractOn(id: string, day: string): Contract | undefined {
    for (const a of this.lineage(id)) {
      if (a.contract && covers(a.contract, day)) return a.contract;
    }
    return undefined;
  }
}
