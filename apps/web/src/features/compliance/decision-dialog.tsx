import { GstDecisionInputSchema, type GstRow } from '@bahi/contracts';
import { useState } from 'react';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { useContractForm } from '@/lib/form.ts';
import { useDecideGst } from './queries.ts';

/** What the dialog is about to do. */
export interface PendingDecision {
  action: 'link' | 'unlink' | 'accept';
  row: GstRow;
  /** The 2B documents a `link` may choose from (the period's documents waiting for an invoice). */
  candidates?: GstRow[];
}

const TITLES = {
  accept: 'Accept the difference',
  unlink: 'Unlink from the 2B document',
  link: 'Link to a 2B document',
} as const;

const HINTS = {
  accept:
    'The invoice moves to Matched and its IMS action becomes Accept while the differences stay as they are now.',
  unlink:
    'The invoice and the 2B document are kept apart from now on: the invoice is missing in 2B, the document missing in books.',
  link: 'Say these are the same document even though the rules did not pair them; any difference still shows.',
} as const;

const ReasonSchema = z.object({ reason: GstDecisionInputSchema.shape.reason });

const label = (r: GstRow) => {
  const g = r.gstr2b;
  return g
    ? `${g.documentNumber} · ${g.documentDate ?? ''} · ${r.vendorName ?? g.gstin} · ₹${g.taxableValue}`
    : r.key;
};

/** Link, unlink or accept — always with a written reason (kept with who and when). */
export function DecisionDialog({ pending, onClose }: { pending: PendingDecision; onClose: () => void }) {
  const decide = useDecideGst();
  const form = useContractForm<{ reason: string }, { reason: string }>(ReasonSchema, { reason: '' });
  const candidates = pending.candidates ?? [];
  const [target, setTarget] = useState(
    pending.action === 'link' ? (pending.row.gstr2b?.key ?? candidates[0]?.gstr2b?.key ?? '') : '',
  );
  const error = form.formState.errors.reason?.message;
  const submit = async ({ reason }: { reason: string }) => {
    const gstr2bKey = pending.action === 'link' ? target : (pending.row.gstr2b?.key ?? '');
    try {
      await decide.mutateAsync({
        action: pending.action,
        documentId: pending.row.invoice?.id ?? '',
        gstr2bKey,
        reason,
      });
      toast.success({ accept: 'Difference accepted', unlink: 'Unlinked', link: 'Linked' }[pending.action]);
      onClose();
    } catch (e) {
      form.setError('reason', { message: e instanceof Error ? e.message : 'Could not save the decision' });
    }
  };
  const noTarget = pending.action === 'link' && !target;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{TITLES[pending.action]}</DialogTitle>
          <DialogDescription>{HINTS[pending.action]}</DialogDescription>
        </DialogHeader>
        <form className="flex flex-col gap-3" onSubmit={form.handleSubmit(submit)} noValidate>
          {pending.action === 'link' && !pending.row.gstr2b && (
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="link-target">2B document</Label>
              {candidates.length === 0 ? (
                <p className="text-muted-foreground text-sm">
                  No 2B document of this period is waiting for an invoice.
                </p>
              ) : (
                <select
                  id="link-target"
                  className="h-9 rounded-md border bg-card px-2 text-sm"
                  value={target}
                  onChange={(e) => setTarget(e.target.value)}
                >
                  {candidates.map((c) => (
                    <option key={c.key} value={c.gstr2b?.key}>
                      {label(c)}
                    </option>
                  ))}
                </select>
              )}
            </div>
          )}
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="decision-reason">Why? (kept with your name and the time)</Label>
            <Textarea
              id="decision-reason"
              rows={3}
              placeholder="e.g. Supplier added freight after the order; credit note promised for September"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'decision-reason-error' : undefined}
              {...form.register('reason')}
            />
            {error && (
              <p id="decision-reason-error" className="text-destructive text-xs">
                {error}
              </p>
            )}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={decide.isPending || noTarget}>
              {TITLES[pending.action]}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
