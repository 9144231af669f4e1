import { Movement, MOVEMENT_TYPES, describeMovement } from '../domain/movement';
import { Clock } from '../util/clock';
import { EventBus } from './bus';

export interface AuditEntry {
  at: string;
  movement: Movement;
}

/** Keeps every movement it hears of, in the order it hears them (bounded). */
export class AuditTrail {
  private readonly entries: AuditEntry[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly limit = 10_000,
  ) {}

  attach(bus: EventBus<Movement>): void {
    for (const type of MOVEMENT_TYPES) bus.on(type, (m) => this.record(m));
  }

  record(movement: Movement): void {
    this.entries.push({ at: this.clock.now().toISOString(), movement });
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
  }

  list(sku?: string): AuditEntry[] {
    return this.entries.filter((e) => sku === undefined || e.movement.sku === sku);
  }

  lines(sku?: string): string[] {
    return this.list(sku).map((e) => `${e.at}  ${describeMovement(e.movement)}`);
  }
}
