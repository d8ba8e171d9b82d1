// The API key in the browser (D49, docs/adr/page-0024): asked once, kept in this tab's
// sessionStorage, or in localStorage when the user ticks "remember on this device". A `#key=`
// fragment (printed by the server on a start that generated a key) is taken, stored for this tab
// and removed from the address bar at once (the browser's history still holds the link: the
// start-up line and docs/web-ui.md say so).
//
// A tab opened from another (a link opened in a new tab) starts with empty sessionStorage, so
// it asks the page's other open tabs for the key over a BroadcastChannel (same origin only) and
// keeps the answer in its own sessionStorage: the key lives no longer than the tabs holding it,
// and a person is asked once per visit, not once per tab.
const NAME = 'cloudprice.apiKey';
const CHANNEL = 'cloudprice.apiKey';
/** How long a new tab waits for another tab's answer before asking the person. */
export const KEY_ASK_MS = 300;

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

type KeyMessage = { readonly ask: true } | { readonly key: string };

const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : undefined;

// Every tab of the page answers a new tab's question with the key it holds (if any).
channel?.addEventListener('message', (event: MessageEvent<KeyMessage>) => {
  const key = getKey();
  if ('ask' in event.data && key !== undefined) channel.postMessage({ key });
});

/**
 * Asks the page's other open tabs for their key; resolves with it (stored for this tab) or
 * undefined when none answers within KEY_ASK_MS.
 */
export function keyFromOtherTab(): Promise<string | undefined> {
  if (channel === undefined) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const done = (key: string | undefined) => {
      clearTimeout(timer);
      channel.removeEventListener('message', listen);
      if (key !== undefined && getKey() === undefined) sessionStorage.setItem(NAME, key);
      resolve(key);
    };
    const listen = (event: MessageEvent<KeyMessage>) => {
      if ('key' in event.data && typeof event.data.key === 'string') done(event.data.key);
    };
    const timer = setTimeout(() => done(undefined), KEY_ASK_MS);
    channel.addEventListener('message', listen);
    channel.postMessage({ ask: true });
  });
}
