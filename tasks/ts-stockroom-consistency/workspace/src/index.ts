export { createStockroom, Stockroom, StockroomOptions } from './app/container';
export { StockStore } from './store/stockStore';
export { MemoryStore } from './store/memoryStore';
export { FileStore } from './store/fileStore';
export { RetryingStore } from './store/retrying';
export { StockRecord, emptyRecord } from './domain/record';
export { Level } from './domain/level';
export { StockError, InvalidInputError, InsufficientStockError, UnknownReservationError } from './domain/errors';
