import type { DocumentEvent } from '@bahi/contracts';
import { HistoryIcon } from 'lucide-react';
import { formatAgo } from '@/lib/format.ts';

/** The review trail: every correction and approval, newest first. */
export function ReviewTrail({
  events,
  describe,
}: {
  events: DocumentEvent[];
  describe: (key: string) => string;
}) {
  if (events.length === 0) return null;
  const show = (v: DocumentEvent['oldValue']) => (v === null || v === '' ? 'empty' : String(v));
  return (
    <section aria-labelledby="trail-title" className="flex flex-col gap-2">
      <h2 id="trail-title" className="flex items-center gap-1.5 font-medium text-muted-foreground text-sm">
        <HistoryIcon className="size-4" aria-hidden="true" />
        History
      </h2>
      <ol className="flex flex-col gap-1 rounded-lg border bg-card p-3 text-sm" data-testid="review-trail">
        {[...events].reverse().map((e) => (
          <li key={e.id} className="flex flex-wrap gap-x-2">
            <span className="font-medium">{e.userName}</span>
            {e.kind === 'approved' ? (
              <span>approved the document{e.newValue ? `: “${e.newValue}”` : ''}</span>
            ) : /^lineItems\.\d+$/.test(e.field ?? '') ? (
              <span>
                {e.newValue === null
                  ? `deleted line ${e.field?.split('.')[1]} (${show(e.oldValue)})`
                  : `added line ${e.field?.split('.')[1]}`}
              </span>
            ) : (
              <span>
                changed {describe(e.field ?? '')} from{' '}
                <span className="font-mono text-xs">{show(e.oldValue)}</span> to{' '}
                <span className="font-mono text-xs">{show(e.newValue)}</span>
              </span>
            )}
            <span className="text-muted-foreground" title={new Date(e.at).toLocaleString('en-IN')}>
              {formatAgo(e.at)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
