/** The User-Agent of every upstream request: the providers' catalogues and the exchange rates. */
export const USER_AGENT =
  'cloudprice/0.1 (catalogue sync; +https://github.com/cloudprice/cloudprice)';
