import type { LedgerMapping, LedgerMappingView } from '@bahi/contracts';
import { useEffect, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { Spinner } from '@/components/spinner.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useCreatePartyLedgers, useLedgerMapping, useSaveMapping } from './books-api.ts';
import { OtherLedgers, PartyLedgers, RateLedgers } from './tally-mapping-parts.tsx';
import { cleanMapping, errorText, initialMapping, partyLedgerName } from './tally-mapping-state.ts';

type Party = LedgerMappingView['parties'][number];

/** Asks before creating the suppliers Tally lacks, naming each with its GSTIN and state. */
function CreateLedgersDialog({
  missing,
  mapping,
  pending,
  onConfirm,
  onClose,
}: {
  missing: Party[];
  mapping: LedgerMapping;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create these ledgers in Tally?</DialogTitle>
          <DialogDescription>
            Each is created under Sundry Creditors with its GSTIN, state and registration type.
          </DialogDescription>
        </DialogHeader>
        <ul className="max-h-64 overflow-auto text-sm">
          {missing.map((p) => (
            <li key={p.gstin ?? p.vendorName}>
              {partyLedgerName(mapping, p)} — {p.gstin ?? 'unregistered'}
              {p.state ? `, ${p.state}` : ''}
            </li>
          ))}
        </ul>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="button" onClick={onConfirm} disabled={pending}>
            {pending ? <Spinner /> : null}
            Create {missing.length} ledger{missing.length === 1 ? '' : 's'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The ledger mapping: suppliers, tax ledgers per rate, cess, round-off, TDS payable; missing suppliers created on confirmation. */
export function TallyMapping({ canManage }: { canManage: boolean }) {
  const view = useLedgerMapping(true);
  const save = useSaveMapping();
  const create = useCreatePartyLedgers();
  const [mapping, setMapping] = useState<LedgerMapping | null>(null);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    if (view.data) setMapping(initialMapping(view.data));
  }, [view.data]);
  const names = useMemo(() => new Set(view.data?.ledgers.map((l) => l.name)), [view.data]);
  if (view.isPending || !mapping) return <Skeleton className="h-40" />;
  if (view.isError)
    return <p className="text-destructive text-sm">Couldn't load the mapping: {view.error.message}</p>;
  const v = view.data;
  const missing = v.parties.filter((p) => !names.has(partyLedgerName(mapping, p)));
  const submit = () =>
    save.mutate(cleanMapping(mapping), {
      onSuccess: () => toast.success('Ledger mapping saved'),
      onError: (e) => toast.error('Could not save the mapping', { description: errorText(e) }),
    });
  const createMissing = () =>
    create.mutate(
      { parties: missing.map((p) => ({ gstin: p.gstin, name: partyLedgerName(mapping, p) })) },
      {
        onSuccess: (r) => {
          setConfirming(false);
          if (r.errors.length)
            toast.error('Tally refused some ledgers', { description: r.errors.join('; ') });
          else
            toast.success(
              `${r.created.length} supplier ledger${r.created.length === 1 ? '' : 's'} created in Tally`,
            );
        },
        onError: (e) => toast.error('Could not create the ledgers', { description: errorText(e) }),
      },
    );
  const part = { mapping, setMapping, off: !canManage };
  return (
    <section aria-labelledby="tally-mapping" className="flex flex-col gap-4" data-testid="tally-mapping">
      <datalist id="tally-ledger-names">
        {v.ledgers.map((l) => (
          <option key={l.name} value={l.name} />
        ))}
      </datalist>
      <h3 id="tally-mapping" className="font-semibold text-base">
        Ledger mapping
      </h3>
      {v.ledgers.length === 0 && (
        <p className="text-muted-foreground text-sm">Test the connection to read Tally's ledgers.</p>
      )}
      <div className="flex flex-col gap-2">
        <h4 className="font-medium text-sm">Suppliers (party ledgers)</h4>
        <PartyLedgers parties={v.parties} names={names} {...part} />
        {missing.length > 0 && canManage && (
          <Button type="button" variant="outline" className="self-start" onClick={() => setConfirming(true)}>
            Create {missing.length} missing supplier ledger{missing.length === 1 ? '' : 's'} in Tally…
          </Button>
        )}
      </div>
      <RateLedgers rates={v.rates} {...part} />
      <OtherLedgers tdsSections={v.tdsSections} {...part} />
      {canManage && (
        <Button type="button" className="self-start" onClick={submit} disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          Save mapping
        </Button>
      )}
      {confirming && (
        <CreateLedgersDialog
          missing={missing}
          mapping={mapping}
          pending={create.isPending}
          onConfirm={createMissing}
          onClose={() => setConfirming(false)}
        />
      )}
    </section>
  );
}
