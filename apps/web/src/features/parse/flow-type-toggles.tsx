import { CheckIcon } from 'lucide-react';
import { cn } from '@/lib/utils.ts';
import { FLOW_TYPES, type FlowType, toggleFlowType } from './flow-format.ts';

const TYPE_HINTS: Record<FlowType, string> = {
  PO: 'Purchase orders',
  GRN: 'Goods receipt notes',
  INVOICE: 'GST tax invoices',
};

/** Three checkbox-looking toggles holding a single document type. */
export function TypeToggles({
  value,
  onChange,
  error,
}: {
  value: FlowType[];
  onChange: (next: FlowType[]) => void;
  error?: string | undefined;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 flex items-center gap-2 font-medium text-sm leading-none">
        Document type
        <span className="text-destructive" aria-hidden="true">
          *
        </span>
      </legend>
      <div className="grid grid-cols-3 gap-2">
        {FLOW_TYPES.map((type) => {
          const checked = value.includes(type);
          return (
            <label
              key={type}
              className={cn(
                'flex cursor-pointer flex-col items-start gap-1 rounded-lg border px-3 py-2.5 text-left transition-colors has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/40',
                checked ? 'border-primary bg-accent' : 'border-input bg-card hover:bg-muted/60',
              )}
            >
              <input
                type="checkbox"
                className="sr-only"
                checked={checked}
                data-testid={`type-${type}`}
                onChange={() => onChange(toggleFlowType(value, type))}
              />
              <span className="flex items-center gap-2 font-semibold text-sm">
                <span
                  aria-hidden="true"
                  className={cn(
                    'flex size-4 items-center justify-center rounded-[4px] border',
                    checked ? 'border-primary bg-primary text-primary-foreground' : 'border-input',
                  )}
                >
                  {checked && <CheckIcon className="size-3" />}
                </span>
                {type}
              </span>
              <span className="text-muted-foreground text-xs leading-tight">{TYPE_HINTS[type]}</span>
            </label>
          );
        })}
      </div>
      {error ? (
        <p role="alert" className="text-destructive text-xs">
          {error}
        </p>
      ) : (
        <p className="text-muted-foreground text-xs">A flow reads one kind of document.</p>
      )}
    </fieldset>
  );
}
