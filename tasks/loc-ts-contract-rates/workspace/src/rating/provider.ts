import { RateCard } from '../domain/priceBook';
import { PriceBookCatalog } from '../catalog/priceBooks';
import { LruCache } from '../util/lru';
import { log } from '../util/log';
import { RatingContext } from './context';
import { rateCardKey } from './cardKey';

export interface ProviderStats {
  /** Rate cards looked up in the price books (cache misses). */
  resolved: number;
  hits: number;
  evictions: number;
}

/** Rate cards for rating, each looked up in the price books once and then reused. */
export class RateCardProvider {
  private readonly cache: LruCache<RateCard>;
  private resolved = 0;

  constructor(private readonly catalog: PriceBookCatalog, capacity = 512) {
    this.cache = new LruCache<RateCard>(capacity);
  }

  cardFor(ctx: RatingContext): RateCard {
    const key = rateCardKey(ctx);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const card = this.catalog.rateCard(ctx);
    this.resolved++;
    log.debug(`rate card ${key} from ${card.source}`);
    this.cache.set(key, card);
    return card;
  }

  stats(): ProviderStats {
    const s = this.cache.stats();
    return { resolved: this.resolved, hits: s.hits, evictions: s.evictions };
  }
}
