import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.tsx';
import { buildApiPath } from '@/lib/endpoint.ts';
import { apiLinks } from '@/lib/endpoints.ts';
import { usePermission } from '@/lib/permissions.ts';
import { useBooksPushes, useCancelInTally, usePostToTally, useTallyConnection } from './books-api.ts';
import { BooksPushBadge } from './books-push-badge.tsx';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * A document's place in Tally on its review page: the state, Tally's refusal in its words, Post / Post again,
 * cancel (after confirmation) for a removed document, and its import file. Nothing while Tally is not set up.
 */
export function DocumentTally({ documentId, approved }: { documentId: string; approved: boolean }) {
  const tally = useTallyConnection();
  const pushes = useBooksPushes(tally.data?.configured ? [documentId] : []);
  const post = usePostToTally();
  const cancel = useCancelInTally();
  const canPost = usePermission('books.post').allowed;
  const [confirmCancel, setConfirmCancel] = useState(false);
  if (!tally.data?.configured) return null;
  const push = pushes.data?.items[0];
  const inTally = push?.outcome === 'created' || push?.outcome === 'altered';
  const send = () =>
    post.mutate([documentId], {
      onSuccess: (r) =>
        r.queued
          ? toast.success('On the way to Tally')
          : toast.error('Not posted', { description: r.skipped[0]?.reason }),
      onError: (e) => toast.error('Could not post to Tally', { description: errorText(e) }),
    });
  return (
    <section
      className="flex flex-col gap-2 rounded-lg border p-3 text-sm"
      aria-label="Tally"
      data-testid="document-tally"
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">Tally</span>
        {push ? <BooksPushBadge push={push} /> : <span className="text-muted-foreground">Not posted</span>}
        {push?.voucherId && <span className="text-muted-foreground text-xs">voucher {push.voucherId}</span>}
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
          data-testid="tally-error"
        >
          {push.error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {canPost && approved && !push?.removed && push?.state !== 'queued' && push?.state !== 'sending' && (
          <Button type="button" size="sm" variant="outline" onClick={send} disabled={post.isPending}>
            {push ? (push.state === 'failed' ? 'Try again' : 'Post again') : 'Post to Tally'}
          </Button>
        )}
        {canPost && push?.removed && inTally && !confirmCancel && (
          <Button type="button" size="sm" variant="outline" onClick={() => setConfirmCancel(true)}>
            Cancel the voucher in Tally…
          </Button>
        )}
        {confirmCancel && (
          <span className="flex flex-wrap items-center gap-2">
            This document was removed. Cancel its voucher in Tally?
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
              Yes, cancel it
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setConfirmCancel(false)}>
              Keep it
            </Button>
          </span>
        )}
        {approved && (
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
