import { App } from '../../app/container';
import { meteredMetrics } from '../../domain/plan';
import { formatMoney, money } from '../../domain/money';
import { formatThousands } from '../../util/strings';
import { table } from '../../render/table';

export function plansCommand(app: App): string {
  const rows = [['plan', 'base (USD)', 'included', 'book']];
  for (const p of app.plans.all()) {
    const included = meteredMetrics(p).map((m) => `${formatThousands(p.included[m])} ${m}`).join(', ');
    rows.push([p.id, formatMoney(money(p.baseFee.USD ?? 0, 'USD')), included, p.defaultBook]);
  }
  return table(rows).join('\n');
}
