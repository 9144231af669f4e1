import { Stockroom } from '../../app/container';
import { levelsJson, levelsText } from '../../render/levels';
import { parseQuantity } from '../../domain/quantity';

export async function adjustCommand(room: Stockroom, args: string[], reason: string | undefined, json: boolean): Promise<string> {
  if (args.length !== 2) throw new Error('usage: stockroom adjust SKU DELTA [--reason TEXT]');
  const level = await room.adjust(args[0], parseQuantity(args[1], 'delta'), reason);
  return json ? levelsJson([level]) : levelsText([level]);
}

export async function reserveCommand(room: Stockroom, args: string[], json: boolean): Promise<string> {
  if (args.length !== 3) throw new Error('usage: stockroom reserve ORDER SKU QTY');
  const level = await room.reserve(args[0], args[1], parseQuantity(args[2]));
  return json ? levelsJson([level]) : levelsText([level]);
}

export async function releaseCommand(room: Stockroom, args: string[], json: boolean): Promise<string> {
  if (args.length !== 2) throw new Error('usage: stockroom release ORDER SKU');
  const level = await room.release(args[0], args[1]);
  return json ? levelsJson([level]) : levelsText([level]);
}

export async function transferCommand(room: Stockroom, args: string[], json: boolean): Promise<string> {
  if (args.length !== 3) throw new Error('usage: stockroom transfer FROM TO QTY');
  const levels = await room.transfer(args[0], args[1], parseQuantity(args[2]));
  return json ? levelsJson(levels) : levelsText(levels);
}
