// The page's state lives in the query string (D50): a copied URL reproduces the view, and every
// change is a history entry, so Back and Forward step through views and filter states. Defaults
// are left out so links stay short.
import { useEffect, useState } from 'preact/hooks';

type Listener = () => void;
const listeners = new Set<Listener>();
addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

export type Updates = Readonly<Record<string, string | undefined>>;

/** Applies `updates` (undefined or '' removes a parameter) and pushes a history entry. */
export function navigate(
  updates: Updates,
  options: { replace?: boolean; reset?: boolean } = {},
): void {
  const params =
    options.reset === true ? new URLSearchParams() : new URLSearchParams(location.search);
  for (const [name, value] of Object.entries(updates)) {
    if (value === undefined || value === '') params.delete(name);
    else params.set(name, value);
  }
  const search = readable(params);
  const url = `${location.pathname}${search === '' ? '' : `?${search}`}`;
  if (url === `${location.pathname}${location.search}`) return;
  if (options.replace === true) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

/** The query string with commas left as they are (lists read `a,b`, not `a%2Cb`). */
function readable(params: URLSearchParams): string {
  return params.toString().replace(/%2C/gi, ',');
}

/** A link's href for a view with these parameters (from scratch, not merged). */
export function hrefFor(params: Updates): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(name, value);
  }
  const text = readable(search);
  return `${location.pathname}${text === '' ? '' : `?${text}`}`;
}

/** Follows a same-page link without reloading (plain clicks only; new-tab clicks keep working). */
export function followLink(event: MouseEvent): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const anchor = (event.currentTarget as HTMLAnchorElement | null) ?? null;
  if (anchor === null) return;
  event.preventDefault();
  history.pushState(null, '', anchor.href);
  for (const listener of listeners) listener();
  scrollTo(0, 0);
}

/** The current query string, re-rendering on every navigation. */
export function useParams(): URLSearchParams {
  const [search, setSearch] = useState(location.search);
  useEffect(() => {
    const update = () => setSearch(location.search);
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, []);
  return new URLSearchParams(search);
}

/**
 * What a link from one view to a record or another view keeps: the currency and the purchase
 * option (D61), the two choices that follow the person everywhere prices are shown.
 */
export type Kept = {
  currency?: string;
  purchase_option?: string;
};

export function keptState(params: URLSearchParams): Kept {
  return {
    currency: params.get('currency') ?? undefined,
    purchase_option: params.get('purchase_option') ?? undefined,
  };
}
