import { log } from '../util/log';

export type Handler<E> = (event: E) => void | Promise<void>;

/** Publish/subscribe by event type. A subscriber that throws is logged and does not stop the others. */
export class EventBus<E extends { type: string }> {
  private readonly handlers = new Map<string, Handler<E>[]>();
  private delivered = 0;

  on(type: E['type'], handler: Handler<E>): () => void {
    const list = this.handlers.get(type) ?? [];
    list.push(handler);
    this.handlers.set(type, list);
    return () => {
      const current = this.handlers.get(type) ?? [];
      this.handlers.set(
        type,
        current.filter((h) => h !== handler),
      );
    };
  }

  emit(event: E): void {
    for (const handler of this.handlers.get(event.type) ?? []) {
      setImmediate(() => {
        this.delivered++;
        Promise.resolve()
          .then(() => handler(event))
          .catch((err) => log.error(`subscriber of ${event.type} failed: ${(err as Error).message}`));
      });
    }
  }

  get deliveries(): number {
    return this.delivered;
  }
}
