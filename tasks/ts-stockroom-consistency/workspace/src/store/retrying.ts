import { StockRecord } from '../domain/record';
import { sleep } from '../util/async';
import { log } from '../util/log';
import { StockStore } from './stockStore';

/**
 * Retries failed loads (never saves: a save that timed out may have happened) a few times
 * with a growing pause. The last error is the one passed on.
 */
export class RetryingStore implements StockStore {
  constructor(
    private readonly inner: StockStore,
    private readonly attempts = 3,
    private readonly pauseMs = 5,
  ) {}

  async load(sku: string): Promise<StockRecord | undefined> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      try {
        return await this.inner.load(sku);
      } catch (err) {
        lastError = err;
        log.warn(`load ${sku} failed (attempt ${attempt}/${this.attempts}): ${(err as Error).message}`);
        if (attempt < this.attempts) await sleep(this.pauseMs * attempt);
      }
    }
    throw lastError;
  }

  save(record: StockRecord): Promise<void> {
    return this.inner.save(record);
  }
}
