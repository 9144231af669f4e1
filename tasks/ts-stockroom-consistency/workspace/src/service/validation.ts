import { InvalidInputError } from '../domain/errors';

const ORDER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function orderId(raw: string): string {
  const id = String(raw).trim();
  if (!ORDER_ID.test(id)) throw new InvalidInputError(`not an order id: ${JSON.stringify(raw)}`);
  return id;
}
