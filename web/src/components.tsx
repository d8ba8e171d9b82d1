// Small shared pieces: the error message, the loading line, a same-page link.
import type { ComponentChildren } from 'preact';
import { describeError } from './api';
import { followLink, hrefFor, type Updates } from './url-state';

export function ErrorMessage({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (error === undefined) return null;
  return (
    <div class="error" role="alert">
      <p>{describeError(error)}</p>
      {onRetry !== undefined && (
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
