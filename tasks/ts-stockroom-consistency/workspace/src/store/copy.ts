import { StockRecord } from '../domain/record';

export function copyRecord(r: StockRecord): StockRecord {
  return { sku: r.sku, onHand: r.onHand, reservations: { ...r.reservations }, version: r.version };
}

/** Reads a record from parsed JSON, tolerating the 1.x layout (`reserved` as a list of {order, qty}). */
export function recordFromJson(raw: unknown): StockRecord {
  const o = raw as Record<string, unknown>;
  const reservations: Record<string, number> = {};
  if (Array.isArray(o.reserved)) {
    for (const r of o.reserved as Array<{ order: string; qty: number }>) reservations[r.order] = r.qty;
  } else if (o.reservations && typeof o.reservations === 'object') {
    Object.assign(reservations, o.reservations);
  }
  return {
    sku: String(o.sku),
    onHand: Number(o.onHand ?? 0),
    reservations,
    version: Number(o.version ?? 1),
  };
}
