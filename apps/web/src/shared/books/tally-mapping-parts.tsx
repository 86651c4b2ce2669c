import type { LedgerMapping, LedgerMappingView } from '@bahi/contracts';
import { Input } from '@/components/ui/input.tsx';
import { half, type RateMap } from './tally-mapping-state.ts';

/** One ledger name box, offering the ledgers Tally already has. */
export function LedgerInput({
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

/** What each part of the mapping form gets: the mapping, a way to change it, and whether it may. */
interface MappingPartProps {
  mapping: LedgerMapping;
  setMapping: (m: LedgerMapping) => void;
  off: boolean;
}

/** Each supplier with the Tally ledger its GSTIN maps to, and whether Tally has it yet. */
export function PartyLedgers({
  parties,
  names,
  mapping,
  setMapping,
  off,
}: MappingPartProps & { parties: LedgerMappingView['parties']; names: Set<string> }) {
  if (parties.length === 0)
    return (
      <p className="text-muted-foreground text-sm">Suppliers appear here once their invoices are approved.</p>
    );
  return (
    <ul className="flex flex-col divide-y rounded-md border">
      {parties.map((p) => {
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
  );
}

/** Per GST rate: the purchase ledger and the input IGST, CGST and SGST ledgers (CGST and SGST at half). */
export function RateLedgers({ rates, mapping, setMapping, off }: MappingPartProps & { rates: string[] }) {
  const setRate = (map: RateMap, key: string, value: string) =>
    setMapping({ ...mapping, [map]: { ...mapping[map], [key]: value } });
  return (
    <div className="flex flex-col gap-2">
      <h4 className="font-medium text-sm">Purchase and input tax, by GST rate</h4>
      {rates.map((r) => (
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
  );
}

/** Cess, round-off, and TDS payable per section. */
export function OtherLedgers({
  tdsSections,
  mapping,
  setMapping,
  off,
}: MappingPartProps & { tdsSections: string[] }) {
  return (
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
      {tdsSections.map((s) => (
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
  );
}
