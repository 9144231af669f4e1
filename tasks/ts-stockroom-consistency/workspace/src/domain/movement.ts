/** One change of stock, as the audit trail records it. */
export type Movement =
  | { type: 'stock.adjusted'; sku: string; delta: number; reason: string; version: number }
  | { type: 'stock.reserved'; sku: string; orderId: string; quantity: number; version: number }
  | { type: 'stock.released'; sku: string; orderId: string; quantity: number; version: number }
  | { type: 'stock.transferred'; sku: string; counterpart: string; delta: number; version: number };

export type MovementType = Movement['type'];

export const MOVEMENT_TYPES: readonly MovementType[] = [
  'stock.adjusted',
  'stock.reserved',
  'stock.released',
  'stock.transferred',
];

export function describeMovement(m: Movement): string {
  switch (m.type) {
    case 'stock.adjusted':
      return `${m.sku} ${m.delta >= 0 ? '+' : ''}${m.delta} (${m.reason})`;
    case 'stock.reserved':
      return `${m.sku} reserved ${m.quantity} for ${m.orderId}`;
    case 'stock.released':
      return `${m.sku} released ${m.quantity} of ${m.orderId}`;
    case 'stock.transferred':
      return `${m.sku} ${m.delta >= 0 ? '+' : ''}${m.delta} (transfer with ${m.counterpart})`;
  }
}
