import { Plan } from '../domain/plan';
import { NotFoundError, DataError } from '../domain/errors';
import { Currency } from '../domain/currency';
import { Money, money } from '../domain/money';

export class PlanCatalog {
  private readonly plans = new Map<string, Plan>();

  constructor(plans: readonly Plan[]) {
    for (const p of plans) {
      if (this.plans.has(p.id)) throw new DataError('plans.json', `plan ${p.id} is listed twice`);
      this.plans.set(p.id, p);
    }
  }

  get(id: string): Plan {
    const p = this.plans.get(id);
    if (!p) throw new NotFoundError('plan', id);
    return p;
  }

  all(): Plan[] {
    return [...this.plans.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  baseFee(planId: string, currency: Currency): Money {
    const fee = this.get(planId).baseFee[currency];
    if (typeof fee !== 'number') throw new NotFoundError(`base fee in ${currency} for plan`, planId);
    return money(fee, currency);
  }
}
