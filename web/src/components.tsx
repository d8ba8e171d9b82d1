// Small shared pieces: the error message, the loading line, a same-page link, copy link.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, describeError } from './api';
import { followLink, hrefFor, type Updates } from './url-state';

/** Asking again can help: no answer, a rate limit, a timeout or a server fault, not bad input. */
function retryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

export function ErrorMessage({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (error === undefined) return null;
  return (
    <div class="error" role="alert">
      <p>{describeError(error)}</p>
      {onRetry !== undefined && retryable(error) && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Link({
  to,
  children,
  class: className,
}: {
  to: Updates;
  children: ComponentChildren;
  class?: string;
}) {
  return (
    <a href={hrefFor(to)} onClick={followLink} class={className}>
      {children}
    </a>
  );
}

export function Status({ loading, children }: { loading: boolean; children: ComponentChildren }) {
  return (
    <p class="status" aria-live="polite" aria-busy={loading}>
      {children}
    </p>
  );
}

/**
 * Copies the address of the view as it is (its filters are in the URL, D50) and says so; the
 * app renders it anew for every URL, so "Copied" never stays beside a link it did not copy.
 */
export function CopyLink() {
  const [said, setSaid] = useState('');
  return (
    <div class="copy-link">
      <button
        type="button"
        class="link-button"
        onClick={() => {
          navigator.clipboard.writeText(location.href).then(
            () => setSaid('Copied'),
            () => setSaid('Copy it from the address bar: the browser did not allow copying.'),
          );
        }}
      >
        Copy link
      </button>
      <span class="status" role="status">
        {said}
      </span>
    </div>
  );
}
