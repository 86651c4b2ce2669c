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
  const connection = useBooksConnection(kind);
  const pushes = useBooksPushes(connection.data?.configured ? [documentId] : []);
  const post = usePostToTally(kind);
  const canPost = usePermission('books.post').allowed;
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
      <PushState push={push} kind={kind} name={name} entry={entry} />
      <div className="flex flex-wrap gap-2">
        {canPost && approved && !push?.removed && push?.state !== 'queued' && push?.state !== 'sending' && (
          <Button type="button" size="sm" variant="outline" onClick={send} disabled={post.isPending}>
            {push ? (push.state === 'failed' ? 'Try again' : 'Post again') : `Post to ${name}`}
          </Button>
        )}
        <CancelEntry
          documentId={documentId}
          kind={kind}
          offered={Boolean(canPost && push?.removed && inTally)}
          name={name}
          entry={entry}
        />
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

/** Where the document stands in the books: the state, its voucher or bill, when and by whom, and a refusal. */
function PushState({
  push,
  kind,
  name,
  entry,
}: {
  push: BooksPush | undefined;
  kind: BooksPush['kind'];
  name: string;
  entry: string;
}) {
  return (
    <>
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
    </>
  );
}

/**
 * A removed document's entry still in the books: "Cancel the voucher…" (Void the bill, in Zoho), then a
 * confirmation before it is cancelled.
 */
function CancelEntry({
  documentId,
  kind,
  offered,
  name,
  entry,
}: {
  documentId: string;
  kind: BooksPush['kind'];
  offered: boolean;
  name: string;
  entry: string;
}) {
  const cancel = useCancelInTally(kind);
  const [confirming, setConfirming] = useState(false);
  const cancelWord = kind === 'zoho' ? 'Void' : 'Cancel';
  if (!confirming)
    return offered ? (
      <Button type="button" size="sm" variant="outline" onClick={() => setConfirming(true)}>
        {cancelWord} the {entry} in {name}…
      </Button>
    ) : null;
  return (
    <span className="flex flex-wrap items-center gap-2">
      This document was removed. {cancelWord} its {entry} in {name}?
      <Button
        type="button"
        size="sm"
        variant="destructive"
        onClick={() =>
          cancel.mutate(documentId, {
            onSuccess: () => setConfirming(false),
            onError: (e) => toast.error('Could not cancel', { description: errorText(e) }),
          })
        }
      >
        Yes, {cancelWord.toLowerCase()} it
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={() => setConfirming(false)}>
        Keep it
      </Button>
    </span>
  );
}
