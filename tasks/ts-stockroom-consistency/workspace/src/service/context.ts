import { Movement } from '../domain/movement';
import { EventBus } from '../events/bus';
import { RecordRepository } from '../store/records';
import { KeyedLock } from '../util/keyedLock';

/** What the write paths share. */
export interface WriteContext {
  records: RecordRepository;
  locks: KeyedLock;
  bus: EventBus<Movement>;
}
