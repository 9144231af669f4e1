import { Plan } from '../domain/plan';
import { DataError } from '../domain/errors';
import { isPlainObject } from '../util/objects';
import { FileStore } from './fileStore';

export function loadPlans(store: FileStore): Plan[] {
  const raw = store.readJson('plans.json');
  if (!isPlainObject(raw) || !Array.isArray(raw.plans)) throw new DataError('plans.json', 'expected {"plans": [...]}');
  return raw.plans.map((p: unknown, i: number) => {
    if (!isPlainObject(p) || typeof p.id !== 'string') throw new DataError('plans.json', `plans[${i}]: needs an id`);
    if (!isPlainObject(p.baseFee) || !isPlainObject(p.included)) {
      throw new DataError('plans.json', `plan ${p.id}: needs baseFee and included`);
    }
    return {
      id: p.id,
      name: typeof p.name === 'string' ? p.name : p.id,
      baseFee: p.baseFee as Record<string, number>,
      included: p.included as Record<string, number>,
      defaultBook: typeof p.defaultBook === 'string' ? p.defaultBook : 'list',
    };
  });
}
