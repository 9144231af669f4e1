import { Stockroom } from '../../app/container';
import { levelsJson, levelsText } from '../../render/levels';

export async function showCommand(room: Stockroom, skus: string[], json: boolean): Promise<string> {
  if (skus.length === 0) throw new Error('usage: stockroom show SKU...');
  const levels = await room.levels(skus);
  return json ? levelsJson(levels) : levelsText(levels);
}
