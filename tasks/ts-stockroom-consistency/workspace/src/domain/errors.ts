/** Base class of the errors stockroom itself raises (store errors pass through as they are). */
export class StockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidInputError extends StockError {}

/** A write that would leave fewer units on hand than are reserved, or reserve more than is available. */
export class InsufficientStockError extends StockError {
  constructor(
    readonly sku: string,
    readonly wanted: number,
    readonly available: number,
  ) {
    super(`insufficient stock for ${sku}: wanted ${wanted}, available ${available}`);
  }
}

export class UnknownReservationError extends StockError {
  constructor(
    readonly orderId: string,
    readonly sku: string,
  ) {
    super(`order ${orderId} holds no reservation of ${sku}`);
  }
}
