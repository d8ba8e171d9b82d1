// The CatalogStore contract: one suite, run against every backend that TEST_BACKENDS selects
// (see test/support/backends.ts). Each test gets a fresh database: a new SQLite file, or a new
// PostgreSQL schema that is dropped afterwards, so parallel files and runs never collide.
import { describeStoreBackend, storeBackends } from '../support/backends.js';
import { applyContract } from './contract/apply-contract.js';
import { historyContract } from './contract/history-contract.js';
import { lockContract } from './contract/lock-contract.js';
import { optionsContract } from './contract/options-contract.js';
import { priceHistoryContract } from './contract/price-history-contract.js';
import { queryContract } from './contract/query-contract.js';
import { useFreshStore } from './contract/store-context.js';
import { unreadableContract } from './contract/unreadable-contract.js';

for (const backend of await storeBackends()) {
  describeStoreBackend('CatalogStore contract', backend, () => {
    const ctx = useFreshStore(backend);
    historyContract(ctx);
    queryContract(ctx);
    applyContract(ctx);
    lockContract(ctx);
    priceHistoryContract(ctx);
    unreadableContract(ctx);
    optionsContract(ctx);
  });
}
