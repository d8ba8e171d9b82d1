// The key prompt (D49): shown when no key is stored or the API refused the stored one. The view's
// state is in the URL, so nothing is lost: after a new key the same view loads again.
import { useState } from 'preact/hooks';
import { setKey } from './key';

export function KeyPrompt({
  refused,
  onKey,
}: {
  /** Why the prompt is back: the server refused the key of the `#key=` link, or a typed one. */
  refused: 'link' | 'typed' | undefined;
  onKey: () => void;
}) {
  const [value, setValue] = useState('');
  const [remember, setRemember] = useState(false);
  return (
    <section class="key-prompt" aria-labelledby="key-title">
      <h1 id="key-title">Enter your API key</h1>
      {refused === 'link' && (
        <p class="error" role="alert">
          The key in the link you opened was refused by the server (401 UNAUTHORIZED): it is wrong,
          or it was changed. Enter the current key below.
        </p>
      )}
      {refused === 'typed' && (
        <p class="error" role="alert">
          The server refused that key (401 UNAUTHORIZED). Check it and enter it again.
        </p>
      )}
      <p>
        Every request this page makes sends the key as <code>X-API-Key</code>. A server that
        generated its own key printed it, and a link to this page with it, when it first started.
      </p>
      <p class="small" id="key-storage">
        Where this page keeps it: in this tab&apos;s session storage, forgotten when you close the
        tab; tabs you open from this page while it is open get it from this tab. Tick &quot;Remember
        on this device&quot; to keep it in this browser&apos;s local storage until you press
        &quot;Change key&quot;. A key from a <code>#key=</code> link is kept for the tab only, but
        the link itself stays in the browser&apos;s history.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const key = value.trim();
          if (key === '') return;
          setKey(key, remember);
          onKey();
        }}
      >
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="current-password"
          required
          value={value}
          onInput={(event) => setValue(event.currentTarget.value)}
        />
        <label class="check">
          <input
            type="checkbox"
            checked={remember}
            onChange={(event) => setRemember(event.currentTarget.checked)}
          />
          Remember on this device
        </label>
        <button type="submit">Continue</button>
      </form>
    </section>
  );
}
