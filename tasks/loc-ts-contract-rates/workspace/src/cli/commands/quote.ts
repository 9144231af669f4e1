import { App } from '../../app/container';
import { parseCurrency } from '../../domain/currency';
import { UsageError } from '../../domain/errors';
import { formatMoney, money } from '../../domain/money';
import { formatThousands } from '../../util/strings';
import { required } from '../args';

export function quoteCommand(app: App, flags: Record<string, string | boolean>): string {
  const metric = app.metrics.canonical(required(flags, 'metric'));
  if (!metric) throw new UsageError(`unknown metric ${flags.metric}`);
  const quantity = Number(required(flags, 'quantity'));
  if (!Number.isFinite(quantity) || quantity < 0) throw new UsageError('--quantity must be a number >= 0');
  const q = app.quotes.quote({
    planId: required(flags, 'plan'),
    book: typeof flags.book === 'string' ? flags.book : undefined,
    metric,
    currency: parseCurrency(typeof flags.currency === 'string' ? flags.currency : 'USD', '--currency'),
    quantity,
  });
  if (flags.json) return JSON.stringify(q, null, 2);
  return `${q.planId} / ${q.book}: ${formatThousands(q.quantity)} ${metric} (${formatThousands(q.billable)} billable) = ${formatMoney(money(q.cents, q.currency))} ${q.currency} (rates from ${q.source})`;
}
