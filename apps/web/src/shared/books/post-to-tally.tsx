import type { BooksPush } from '@bahi/contracts';
import { SendIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Spinner } from '@/components/spinner.tsx';
import { Button } from '@/components/ui/button.tsx';
import { usePermission } from '@/lib/permissions.ts';
import { useBooksConnection, useBooksPushes, usePostToTally } from './books-api.ts';

/** How each package is named on screen. */
export const BOOKS_NAMES: Record<BooksPush['kind'], string> = { tally: 'Tally', zoho: 'Zoho Books' };

/**
 * The review queue's parts of one package (Tally, or Zoho Books): whether it is set up, and the push
 * records of the rows shown (a map by document id). Empty while it is not set up.
 */
export function useQueueTally(
  ids: readonly string[],
  kind: BooksPush['kind'] = 'tally',
): { enabled: boolean; pushes: Map<string, BooksPush> } {
  const connection = useBooksConnection(kind);
  const enabled = connection.data?.configured ?? false;
  const pushes = useBooksPushes(enabled ? ids : []);
  const mine = (pushes.data?.items ?? []).filter((p) => p.kind === kind);
  return { enabled, pushes: new Map(mine.map((p) => [p.documentId, p])) };
}

/** "Post to Tally" / "Post to Zoho Books": posts the approved invoices listed (a corrected one alters its entry; unchanged ones send nothing). */
export function PostToTallyButton({
  items,
  kind = 'tally',
}: {
  items: ReadonlyArray<{ id: string; approved: boolean }>;
  kind?: BooksPush['kind'];
}) {
  const name = BOOKS_NAMES[kind];
  const post = usePostToTally(kind);
  const permission = usePermission('books.post');
  const approved = items.filter((i) => i.approved).map((i) => i.id);
  const run = () =>
    post.mutate(approved, {
      onSuccess: (r) => {
        const left = r.skipped.length
          ? `; ${r.skipped.length} left out (${r.skipped.map((s) => `${s.fileName}: ${s.reason}`).join('; ')})`
          : '';
        toast.success(`${r.queued} invoice${r.queued === 1 ? '' : 's'} on the way to ${name}${left}`);
      },
      onError: (e) =>
        toast.error(`Could not post to ${name}`, { description: e instanceof Error ? e.message : String(e) }),
    });
  return (
    <Button
      type="button"
      variant="outline"
      onClick={run}
      disabled={!permission.allowed || approved.length === 0 || post.isPending}
      title={permission.reason ?? (approved.length === 0 ? 'No approved invoice on this page' : undefined)}
    >
      {post.isPending ? <Spinner /> : <SendIcon aria-hidden="true" />}
      Post to {name} ({approved.length})
    </Button>
  );
}
