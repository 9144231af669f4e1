import { FileStore } from '../adapters/fileStore';
import { loadPlans } from '../adapters/planRepo';
import { loadAccountFile } from '../adapters/accountRepo';
import { loadPriceBooks } from '../adapters/priceBookRepo';
import { loadUsage } from '../adapters/usageRepo';
import { loadCoupons, Coupon } from '../adapters/couponRepo';
import { loadTaxRates } from '../adapters/taxRepo';
import { loadMetrics } from '../adapters/metricRepo';
import { PlanCatalog } from '../catalog/plans';
import { PriceBookCatalog } from '../catalog/priceBooks';
import { MetricCatalog } from '../catalog/metrics';
import { AccountDirectory } from '../accounts/hierarchy';
import { RateCardProvider } from '../rating/provider';
import { UsageLedger } from '../usage/aggregate';
import { TaxTable } from '../billing/tax';
import { InvoiceDeps } from '../billing/invoiceBuilder';
import { QuoteService } from '../quotes/quoteService';
import { BillingPeriod } from '../domain/period';
import { Config } from './config';

/** Everything one command needs, loaded once from the data folder. */
export class App {
  readonly store: FileStore;
  readonly plans: PlanCatalog;
  readonly accounts: AccountDirectory;
  readonly books: PriceBookCatalog;
  readonly metrics: MetricCatalog;
  readonly rates: RateCardProvider;
  readonly taxes: TaxTable;
  readonly coupons: Map<string, Coupon>;
  readonly quotes: QuoteService;
  private readonly usage = new Map<string, UsageLedger>();

  constructor(config: Config) {
    this.store = new FileStore(config.dataDir);
    this.plans = new PlanCatalog(loadPlans(this.store));
    this.accounts = new AccountDirectory(loadAccountFile(this.store));
    this.books = new PriceBookCatalog(loadPriceBooks(this.store), this.plans, this.accounts);
    this.metrics = new MetricCatalog(loadMetrics(this.store));
    this.rates = new RateCardProvider(this.books, config.cacheCapacity);
    this.taxes = new TaxTable(loadTaxRates(this.store));
    this.coupons = loadCoupons(this.store);
    this.quotes = new QuoteService(this.plans, this.books);
  }

  usageFor(period: BillingPeriod): UsageLedger {
    let ledger = this.usage.get(period.label);
    if (!ledger) {
      ledger = new UsageLedger(loadUsage(this.store, period), period, this.metrics);
      this.usage.set(period.label, ledger);
    }
    return ledger;
  }

  invoiceDeps(): InvoiceDeps {
    return { plans: this.plans, rates: this.rates, taxes: this.taxes, coupons: this.coupons };
  }
}
