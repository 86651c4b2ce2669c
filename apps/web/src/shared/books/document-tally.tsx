import type { BooksPush } from '@bahi/contracts';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.tsx';
import { buildApiPath } from '@/lib/endpoint.ts';
import { apiLinks } from '@/lib/endpoints.ts';
import { usePermission } from '@/lib/permissions.ts';
import { useBooksConnection, useBooksPushes, useCancelInTally, usePostToTally } from './books-api.ts';
import { BooksPushBadge } from './books-push-badge.tsx';
import { BOOKS_NAMES } from './post-to-tally.tsx';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * A document's place in Tally (or Zoho Books) on its review page: the state, the books' refusal in their
 * words, Post / Post again, cancel (void, in Zoho) after confirmation for a removed document, and (Tally)
 * its import file. Nothing while that package is not set up.
 */
export function DocumentTally({
  documentId,
  approved,
  kind = 'tally',
}: {
  documentId: string;
  approved: boolean;
  kind?: BooksPush['kind'];
}) {
  const name = BOOKS_NAMES[kind];
  const entry = kind === 'zoho' ? 'bill' : 'voucher';
  const cancelWord = kind === 'zoho' ? 'Void' : 'Cancel';
  const connection = useBooksConnection(kind);
  const pushes = useBooksPushes(connection.data?.configured ? [documentId] : []);
  const post = usePostToTally(kind);
  const cancel = useCancelInTally(kind);
  const canPost = usePermission('books.post').allowed;
  const [confirmCancel, setConfirmCancel] = useState(false);
  if (!connection.data?.configured) return null;
  const push = pushes.data?.items.find((p) => p.kind === kind);
  const inTally = push?.outcome === 'created' || push?.outcome === 'altered';
  const send = () =>
    post.mutate([documentId], {
      onSuccess: (r) =>
        r.queued
          ? toast.success(`On the way to ${name}`)
          : toast.error('Not posted', { description: r.skipped[0]?.reason }),
      onError: (e) => toast.error(`Could not post to ${name}`, { description: errorText(e) }),
    });
  return (
    <section
      className="flex flex-col gap-2 rounded-lg border p-3 text-sm"
      aria-label={name}
      data-testid={`document-${kind}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{name}</span>
        {push ? <BooksPushBadge push={push} /> : <span className="text-muted-foreground">Not posted</span>}
        {push?.voucherId && (
          <span className="text-muted-foreground text-xs">
            {entry} {push.voucherId}
          </span>
        )}
        {push?.sentAt && (
          <span className="text-muted-foreground text-xs">
            {new Date(push.sentAt).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' })}
            {push.requestedBy ? ` by ${push.requestedBy}` : ''}
          </span>
        )}
      </div>
      {push?.error && (
        <p
          role="alert"
          className="rounded-md bg-destructive/5 px-2 py-1 text-destructive"
          data-testid={`${kind}-error`}
        >
          {push.error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {canPost && approved && !push?.removed && push?.state !== 'queued' && push?.state !== 'sending' && (
          <Button type="button" size="sm" variant="outline" onClick={send} disabled={post.isPending}>
            {push ? (push.state === 'failed' ? 'Try again' : 'Post again') : `Post to ${name}`}
          </Button>
        )}
        {canPost && push?.removed && inTally && !confirmCancel && (
          <Button type="button" size="sm" variant="outline" onClick={() => setConfirmCancel(true)}>
            {cancelWord} the {entry} in {name}…
          </Button>
        )}
        {confirmCancel && (
          <span className="flex flex-wrap items-center gap-2">
            This document was removed. {cancelWord} its {entry} in {name}?
            <Button
              type="button"
              size="sm"
              variant="destructive"
              onClick={() =>
                cancel.mutate(documentId, {
                  onSuccess: () => setConfirmCancel(false),
                  onError: (e) => toast.error('Could not cancel', { description: errorText(e) }),
                })
              }
            >
              Yes, {cancelWord.toLowerCase()} it
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setConfirmCancel(false)}>
              Keep it
            </Button>
          </span>
        )}
        {approved && kind === 'tally' && (
          <a
            className="self-center text-primary text-xs hover:underline"
            href={buildApiPath(apiLinks.tallyXml, {}, { ids: documentId })}
          >
            Download XML for Tally's import
          </a>
        )}
      </div>
    </section>
  );
}
