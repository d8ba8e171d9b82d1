// The API key in the browser (D49): asked once, kept in sessionStorage, or in localStorage when
// the user ticks "remember on this device". A `#key=` fragment (printed by the server on a start
// that generated a key) is taken, stored and removed from the address bar at once.
const NAME = 'cloudprice.apiKey';

/** Takes a `#key=` fragment's key; true when there was one. */
export function takeKeyFromFragment(): boolean {
  const match = /^#key=([^&]+)$/.exec(location.hash);
  if (match === null) return false;
  setKey(decodeURIComponent(match[1]!), false);
  history.replaceState(history.state, '', location.pathname + location.search);
  return true;
}

export function getKey(): string | undefined {
  return sessionStorage.getItem(NAME) ?? localStorage.getItem(NAME) ?? undefined;
}

export function setKey(key: string, remember: boolean): void {
  clearKey();
  (remember ? localStorage : sessionStorage).setItem(NAME, key);
}

export function clearKey(): void {
  sessionStorage.removeItem(NAME);
  localStorage.removeItem(NAME);
}
