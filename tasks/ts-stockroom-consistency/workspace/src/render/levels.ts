import { Level } from '../domain/level';
import { table } from './table';

export function levelsText(levels: readonly Level[]): string {
  return table(
    ['sku', 'on hand', 'reserved', 'available'],
    levels.map((l) => [l.sku, String(l.onHand), String(l.reserved), String(l.available)]),
    ['l', 'r', 'r', 'r'],
  );
}

export function levelsJson(levels: readonly Level[]): string {
  return JSON.stringify(levels, null, 2);
}
