import type { BooksPush } from '@bahi/contracts';
import { SendIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Spinner } from '@/components/spinner.tsx';
import { Button } from '@/components/ui/button.tsx';
import { usePermission } from '@/lib/permissions.ts';
import { useBooksPushes, usePostToTally, useTallyConnection } from './books-api.ts';

/**
 * The review queue's Tally parts: whether Tally is set up, and the push records of the rows shown (a map by
 * document id). Empty while Tally is not set up.
 */
export function useQueueTally(ids: readonly string[]): { enabled: boolean; pushes: Map<string, BooksPush> } {
  const tally = useTallyConnection();
  const enabled = tally.data?.configured ?? false;
  const pushes = useBooksPushes(enabled ? ids : []);
  return { enabled, pushes: new Map((pushes.data?.items ?? []).map((p) => [p.documentId, p])) };
}

/** "Post to Tally": posts the approved invoices listed (a corrected one alters its voucher; unchanged ones send nothing). */
export function PostToTallyButton({ items }: { items: ReadonlyArray<{ id: string; approved: boolean }> }) {
  const post = usePostToTally();
  const permission = usePermission('books.post');
  const approved = items.filter((i) => i.approved).map((i) => i.id);
  const run = () =>
    post.mutate(approved, {
      onSuccess: (r) => {
        const left = r.skipped.length
          ? `; ${r.skipped.length} left out (${r.skipped.map((s) => `${s.fileName}: ${s.reason}`).join('; ')})`
          : '';
        toast.success(`${r.queued} invoice${r.queued === 1 ? '' : 's'} on the way to Tally${left}`);
      },
      onError: (e) =>
        toast.error('Could not post to Tally', { description: e instanceof Error ? e.message : String(e) }),
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
      Post to Tally ({approved.length})
    </Button>
  );
}
