import { normalizeGstinInput, validateGstin } from '@bahi/india';
import { MapPinIcon, PlusIcon, ReceiptTextIcon, Trash2Icon } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { cn } from '@/lib/utils.ts';
import { addGstinEntry, type GstinEntry, getGstinStateName } from './gstin-list.ts';

/** Add/remove GSTINs. Changes stay local until the page's "Save Changes". */
export function GstinManager({
  entries,
  onChange,
}: {
  entries: GstinEntry[];
  onChange: (next: GstinEntry[]) => void;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>GSTIN management</CardTitle>
        <CardDescription>
          Add every GSTIN your business is registered under. Invoices are matched to the right registration by
          state.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <GstinAdder entries={entries} onChange={onChange} />
        {entries.length === 0 ? (
          <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed bg-muted/30 px-6 py-8 text-center">
            <ReceiptTextIcon className="size-6 text-muted-foreground" aria-hidden="true" />
            <p className="font-medium text-sm">No GSTINs added yet</p>
            <p className="text-muted-foreground text-xs">
              Add your first GSTIN above, then save your changes.
            </p>
          </div>
        ) : (
          <GstinList entries={entries} onChange={onChange} />
        )}
      </CardContent>
    </Card>
  );
}

/** The GSTIN and label being typed, checked as they are typed; Add (or Enter) puts them on the list. */
function GstinAdder({
  entries,
  onChange,
}: {
  entries: GstinEntry[];
  onChange: (next: GstinEntry[]) => void;
}) {
  const [gstin, setGstin] = useState('');
  const [label, setLabel] = useState('');
  const [touched, setTouched] = useState(false);

  const validation = gstin ? validateGstin(gstin) : null;
  const valid = validation?.ok === true;
  const showInvalid = touched && gstin.length > 0 && !valid;

  function handleAdd(event?: FormEvent) {
    event?.preventDefault();
    const result = addGstinEntry(entries, gstin, label);
    if (!result.ok) {
      if (result.reason === 'duplicate') {
        toast.error('Duplicate GSTIN', { description: 'This GSTIN is already added to your profile.' });
      } else {
        setTouched(true);
      }
      return;
    }
    onChange(result.entries);
    setGstin('');
    setLabel('');
    setTouched(false);
  }
  // Enter adds (a valid GSTIN) rather than submitting the page's form.
  const addOnEnter = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      if (valid) handleAdd();
    }
  };

  return (
    // A div, not a nested form: the whole page is one form and Enter here should add, not save.
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_auto] sm:items-start">
      <div className="grid grid-cols-1 gap-2">
        <div className="flex items-center justify-between">
          <Label htmlFor="gstin-input">GSTIN</Label>
          <span className="text-muted-foreground text-xs tabular-nums" data-testid="gstin-counter">
            {gstin.length}/15
          </span>
        </div>
        <Input
          id="gstin-input"
          value={gstin}
          placeholder="29ABCDE1234F1ZW"
          autoComplete="off"
          spellCheck={false}
          className="font-mono uppercase tracking-wider"
          aria-invalid={showInvalid ? true : undefined}
          aria-describedby="gstin-help"
          onChange={(e) => setGstin(normalizeGstinInput(e.target.value))}
          onBlur={() => setTouched(true)}
          onKeyDown={addOnEnter}
        />
        <div id="gstin-help" className="min-h-4 text-xs">
          {showInvalid && validation && !validation.ok ? (
            <p role="alert" className="text-destructive">
              <span className="font-medium">Invalid GSTIN format</span>
              <span className="text-destructive/85"> — {validation.message}</span>
            </p>
          ) : valid && validation?.ok ? (
            <p className="text-success">Valid GSTIN · {getGstinStateName(validation.stateCode)}</p>
          ) : (
            <p className="text-muted-foreground">
              15 characters: state code, PAN, entity number, Z, check character.
            </p>
          )}
        </div>
      </div>
      <div className="grid grid-cols-1 gap-2">
        <Label htmlFor="gstin-label">
          Label <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Input
          id="gstin-label"
          value={label}
          maxLength={100}
          placeholder="e.g. Head office"
          onChange={(e) => setLabel(e.target.value)}
          onKeyDown={addOnEnter}
        />
      </div>
      <Button type="button" className="sm:mt-[1.375rem]" disabled={!valid} onClick={() => handleAdd()}>
        <PlusIcon aria-hidden="true" />
        Add
      </Button>
    </div>
  );
}

/** The GSTINs added so far, each with its state and a remove button. */
function GstinList({ entries, onChange }: { entries: GstinEntry[]; onChange: (next: GstinEntry[]) => void }) {
  return (
    <ul className="divide-y rounded-lg border" data-testid="gstin-list">
      {entries.map((entry) => (
        <li key={entry.gstin} className="flex items-center gap-4 px-4 py-3">
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium font-mono text-sm tracking-wider">{entry.gstin}</span>
              {entry.label && <Badge variant="secondary">{entry.label}</Badge>}
            </div>
            <p className="mt-0.5 flex items-center gap-1 text-muted-foreground text-xs">
              <MapPinIcon className="size-3" aria-hidden="true" />
              {getGstinStateName(entry.stateCode)}
              <span className="text-muted-foreground/70">· code {entry.stateCode}</span>
            </p>
          </div>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className={cn('text-muted-foreground hover:bg-destructive/10 hover:text-destructive')}
            aria-label={`Remove GSTIN ${entry.gstin}`}
            onClick={() => onChange(entries.filter((other) => other.gstin !== entry.gstin))}
          >
            <Trash2Icon />
          </Button>
        </li>
      ))}
    </ul>
  );
}
