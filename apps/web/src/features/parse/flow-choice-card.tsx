import type { LucideIcon } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router';
import { cn } from '@/lib/utils.ts';
import type { GoogleStatus } from '@/shared/integrations/queries.ts';

/* The pieces the flow form's Input and Output pickers share. */

/** One radio-like card of the source and output pickers: selected, available or greyed out. */
export function ChoiceCard({
  name,
  value,
  label,
  icon: Icon,
  selected,
  disabled,
  testId,
  onSelect,
}: {
  name: string;
  value: string;
  label: string;
  icon: LucideIcon;
  selected: boolean;
  disabled: boolean;
  testId: string;
  onSelect: () => void;
}) {
  return (
    <label
      className={cn(
        'flex items-center gap-2 rounded-lg border px-3 py-2 text-left text-sm transition-colors has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/40',
        disabled
          ? 'cursor-not-allowed border-input bg-muted/40 text-muted-foreground'
          : selected
            ? 'cursor-pointer border-primary bg-accent font-medium text-accent-foreground'
            : 'cursor-pointer border-input bg-card hover:bg-muted/60',
      )}
    >
      <input
        type="radio"
        name={name}
        value={value}
        className="sr-only"
        checked={selected}
        disabled={disabled}
        data-testid={testId}
        onChange={onSelect}
      />
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      {label}
    </label>
  );
}

/** Why a Google choice is greyed out: the server has no Google client (the server refuses it in the same words). */
function GoogleUnavailableNote({ feature, testId }: { feature: string; testId: string }) {
  return (
    <p className="text-muted-foreground text-xs" data-testid={testId}>
      {feature} needs Google, which is not set up on this server; uploads, local folders and workbooks work
      without it.{' '}
      <Link to="/integrations" className="text-primary underline underline-offset-2">
        How to set up Google
      </Link>
    </p>
  );
}

/** What a row of choice cards is given. */
interface ChoiceGroupProps<K extends string> {
  legend: string;
  name: string;
  labels: Record<K, string>;
  icons: Record<K, LucideIcon>;
  value: K;
  onChange: (kind: K) => void;
  googleKind: K;
  testPrefix: string;
}

/**
 * A row of choice cards for one setting (where documents come from, where rows go). The choice that needs
 * Google is greyed out when the server has no Google client, unless the flow already uses it.
 */
function ChoiceGroup<K extends string>({
  legend,
  name,
  labels,
  icons,
  value,
  onChange,
  googleKind,
  unconfigured,
  testPrefix,
}: ChoiceGroupProps<K> & { unconfigured: boolean }) {
  return (
    <fieldset className="grid grid-cols-1 gap-2 sm:grid-cols-2">
      <legend className="sr-only">{legend}</legend>
      {(Object.keys(labels) as K[]).map((kind) => (
        <ChoiceCard
          key={kind}
          name={name}
          value={kind}
          label={labels[kind]}
          icon={icons[kind]}
          selected={value === kind}
          disabled={kind === googleKind && unconfigured && value !== kind}
          testId={`${testPrefix}-${kind}`}
          onSelect={() => onChange(kind)}
        />
      ))}
    </fieldset>
  );
}

/**
 * A setting's choice cards with the note under them. When the server has no Google client the Google
 * choice is greyed out and the note says why (`googleFeature`); otherwise `children` is the note, if any.
 */
export function GoogleChoicePicker<K extends string>({
  google,
  googleFeature,
  unavailableTestId,
  children,
  ...group
}: ChoiceGroupProps<K> & {
  google: GoogleStatus | undefined;
  googleFeature: string;
  unavailableTestId: string;
  children?: React.ReactNode;
}) {
  const unconfigured = google?.configured === false;
  return (
    <div className="grid gap-2">
      <ChoiceGroup {...group} unconfigured={unconfigured} />
      {unconfigured ? <GoogleUnavailableNote feature={googleFeature} testId={unavailableTestId} /> : children}
    </div>
  );
}
