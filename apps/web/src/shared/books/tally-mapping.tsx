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
import { Input } from '@/components/ui/input.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useCreatePartyLedgers, useLedgerMapping, useSaveMapping } from './books-api.ts';

const half = (rate: string) => String(Number(rate) / 2);
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The mapping as first shown: what is saved, else Bahi's suggestion for each supplier. */
function initialMapping(view: LedgerMappingView): LedgerMapping {
  const parties = { ...view.mapping.parties };
  for (const p of view.parties)
    if (p.gstin && !parties[p.gstin] && p.suggested) parties[p.gstin] = p.suggested;
  return { ...view.mapping, parties };
}

function LedgerInput({
  id,
  label,
  value,
  placeholder,
  onChange,
  disabled,
}: {
  id: string;
  label: string;
  value: string;
  placeholder: string;
  onChange: (v: string) => void;
  disabled: boolean;
}) {
  return (
    <label htmlFor={id} className="flex flex-col gap-1 text-xs">
      <span className="text-muted-foreground">{label}</span>
      <Input
        id={id}
        list="tally-ledger-names"
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
        className="h-8 text-sm"
      />
    </label>
  );
}

type RateMap = 'purchase' | 'igst' | 'cgst' | 'sgst';

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
  const missing = v.parties.filter((p) => !names.has((p.gstin && mapping.parties[p.gstin]) || p.vendorName));
  const setRate = (map: RateMap, key: string, value: string) =>
    setMapping({ ...mapping, [map]: { ...mapping[map], [key]: value } });
  const clean = (m: LedgerMapping): LedgerMapping => {
    const drop = (r: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(r)
          .filter(([, x]) => x.trim())
          .map(([k, x]) => [k, x.trim()]),
      );
    return {
      parties: drop(m.parties),
      purchase: drop(m.purchase),
      igst: drop(m.igst),
      cgst: drop(m.cgst),
      sgst: drop(m.sgst),
      tdsPayable: drop(m.tdsPayable),
      cess: m.cess?.trim() || null,
      roundOff: m.roundOff?.trim() || null,
    };
  };
  const submit = () =>
    save.mutate(clean(mapping), {
      onSuccess: () => toast.success('Ledger mapping saved'),
      onError: (e) => toast.error('Could not save the mapping', { description: errorText(e) }),
    });
  const createMissing = () =>
    create.mutate(
      {
        parties: missing.map((p) => ({
          gstin: p.gstin,
          name: (p.gstin && mapping.parties[p.gstin]) || p.vendorName,
        })),
      },
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
  const off = !canManage;
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
        {v.parties.length === 0 ? (
          <p className="text-muted-foreground text-sm">
            Suppliers appear here once their invoices are approved.
          </p>
        ) : (
          <ul className="flex flex-col divide-y rounded-md border">
            {v.parties.map((p) => {
              const key = p.gstin ?? p.vendorName;
              const value = (p.gstin && mapping.parties[p.gstin]) ?? '';
              const exists = names.has(value || p.vendorName);
              return (
                <li key={key} className="grid grid-cols-1 gap-2 p-2 sm:grid-cols-[1fr_16rem] sm:items-center">
                  <div className="min-w-0 text-sm">
                    <div className="truncate font-medium">{p.vendorName}</div>
                    <div className="text-muted-foreground text-xs">
                      {p.gstin ?? 'No GSTIN'}
                      {p.suggestedBy ? ` · suggested by ${p.suggestedBy === 'gstin' ? 'GSTIN' : 'name'}` : ''}
                      {exists ? '' : ' · not in Tally yet'}
                    </div>
                  </div>
                  <Input
                    aria-label={`Tally ledger for ${p.vendorName}`}
                    list="tally-ledger-names"
                    className="h-8 text-sm"
                    value={value}
                    placeholder={p.vendorName}
                    disabled={off || !p.gstin}
                    onChange={(e) =>
                      p.gstin &&
                      setMapping({ ...mapping, parties: { ...mapping.parties, [p.gstin]: e.target.value } })
                    }
                  />
                </li>
              );
            })}
          </ul>
        )}
        {missing.length > 0 && canManage && (
          <Button type="button" variant="outline" className="self-start" onClick={() => setConfirming(true)}>
            Create {missing.length} missing supplier ledger{missing.length === 1 ? '' : 's'} in Tally…
          </Button>
        )}
      </div>
      <div className="flex flex-col gap-2">
        <h4 className="font-medium text-sm">Purchase and input tax, by GST rate</h4>
        {v.rates.map((r) => (
          <fieldset
            key={r}
            className="grid grid-cols-1 gap-2 rounded-md border p-2 min-[480px]:grid-cols-2 sm:grid-cols-4"
          >
            <legend className="px-1 font-medium text-xs">{r}%</legend>
            <LedgerInput
              id={`purchase-${r}`}
              label="Purchase"
              value={mapping.purchase[r] ?? ''}
              placeholder={`Purchase @${r}%`}
              onChange={(x) => setRate('purchase', r, x)}
              disabled={off}
            />
            <LedgerInput
              id={`igst-${r}`}
              label="Input IGST"
              value={mapping.igst[r] ?? ''}
              placeholder={`Input IGST @${r}%`}
              onChange={(x) => setRate('igst', r, x)}
              disabled={off}
            />
            <LedgerInput
              id={`cgst-${r}`}
              label="Input CGST"
              value={mapping.cgst[half(r)] ?? ''}
              placeholder={`Input CGST @${half(r)}%`}
              onChange={(x) => setRate('cgst', half(r), x)}
              disabled={off}
            />
            <LedgerInput
              id={`sgst-${r}`}
              label="Input SGST"
              value={mapping.sgst[half(r)] ?? ''}
              placeholder={`Input SGST @${half(r)}%`}
              onChange={(x) => setRate('sgst', half(r), x)}
              disabled={off}
            />
          </fieldset>
        ))}
      </div>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <LedgerInput
          id="cess"
          label="Cess"
          value={mapping.cess ?? ''}
          placeholder="Input Cess"
          onChange={(x) => setMapping({ ...mapping, cess: x })}
          disabled={off}
        />
        <LedgerInput
          id="round-off"
          label="Round-off"
          value={mapping.roundOff ?? ''}
          placeholder="Round Off"
          onChange={(x) => setMapping({ ...mapping, roundOff: x })}
          disabled={off}
        />
        {v.tdsSections.map((s) => (
          <LedgerInput
            key={s}
            id={`tds-${s}`}
            label={`TDS payable, section ${s}`}
            value={mapping.tdsPayable[s] ?? ''}
            placeholder={`TDS Payable ${s}`}
            onChange={(x) => setMapping({ ...mapping, tdsPayable: { ...mapping.tdsPayable, [s]: x } })}
            disabled={off}
          />
        ))}
      </div>
      {canManage && (
        <Button type="button" className="self-start" onClick={submit} disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          Save mapping
        </Button>
      )}
      {confirming && (
        <Dialog open onOpenChange={(open) => !open && setConfirming(false)}>
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
                  {(p.gstin && mapping.parties[p.gstin]) || p.vendorName} — {p.gstin ?? 'unregistered'}
                  {p.state ? `, ${p.state}` : ''}
                </li>
              ))}
            </ul>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
              <Button type="button" onClick={createMissing} disabled={create.isPending}>
                {create.isPending ? <Spinner /> : null}
                Create {missing.length} ledger{missing.length === 1 ? '' : 's'}
              </Button>
            </DialogFooter>
          </DialogContent>
        </Dialog>
      )}
    </section>
  );
}
