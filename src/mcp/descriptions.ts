// Notes shared by the tool descriptions: what an assistant must know to quote a price right.

export const UNITS_NOTE =
  "Units: prices are per month in USD unless `currency` names another (USD, EUR, JPY, KRW, SGD, HKD... any ECB reference currency, upper case), converted at the latest ECB rate (the rate is in metadata.exchange_rate); monthly = hourly x 730 where a provider gives only hourly. Memory filters are in GB (1 GB = 1024 MB); records give memory_mb. Regions are the providers' own codes (ap-northeast-1, nrt, icn...); cities group them (tokyo, seoul, osaka, singapore, hong-kong).";

export const FRESHNESS_NOTE =
  'Provenance: every price carries observed_at, when it was observed upstream (bundled snapshots are recordings of a past date). A provider is `stale` (get_freshness) when its figures were observed more than DATA_STALE_DAYS (default 90) days ago: quote its prices with their observation date and say they may have changed. Bad arguments answer isError with our error code (e.g. INVALID_PARAMETER) and the reason; correct the argument and call again.';
