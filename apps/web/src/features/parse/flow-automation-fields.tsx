import { DEFAULT_TIME_ZONE } from '@bahi/contracts';
import type { UseFormReturn } from 'react-hook-form';
import { FormField } from '@/components/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { registerClearing } from '@/lib/form.ts';
import { useMe } from '@/lib/session.ts';
import { TRIGGER_LABELS, type TriggerChoice } from './flow-automation.ts';
import type { FlowFormValues } from './flow-form.ts';

type Form = UseFormReturn<FlowFormValues, unknown, FlowFormValues>;

/**
 * "Run this flow": by hand, on arrival, every N minutes or daily at HH:MM on the organisation's clock (its
 * time zone setting on the profile page). Every source kind can be watched (a folder, uploads, a Drive
 * folder, a mailbox).
 */
export function TriggerFields({ form }: { form: Form }) {
  const values = form.watch();
  const me = useMe();
  const zone = me.data?.organization?.timeZone ?? DEFAULT_TIME_ZONE;
  const { errors } = form.formState;
  const text = (field: 'everyMinutes' | 'dailyTime') => registerClearing(form, field);
  const choices = Object.keys(TRIGGER_LABELS) as TriggerChoice[];
  return (
    <fieldset className="grid gap-2" data-testid="trigger-fields">
      <legend className="mb-1 font-medium text-sm">Run this flow</legend>
      <div className="grid grid-cols-1 gap-1.5 sm:grid-cols-2">
        {choices.map((choice) => (
          <label key={choice} className="flex cursor-pointer items-center gap-2 text-sm">
            <input
              type="radio"
              name="trigger"
              value={choice}
              className="size-4 accent-primary"
              checked={values.trigger === choice}
              data-testid={`trigger-${choice}`}
              onChange={() => form.setValue('trigger', choice, { shouldDirty: true })}
            />
            {TRIGGER_LABELS[choice]}
          </label>
        ))}
      </div>
      {values.trigger === 'every' && (
        <FormField id="flow-every" label="Every how many minutes" error={errors.everyMinutes?.message}>
          {(ids) => <Input {...ids} inputMode="numeric" className="w-28" {...text('everyMinutes')} />}
        </FormField>
      )}
      {values.trigger === 'daily' && (
        <FormField
          id="flow-daily"
          label="Time of day"
          hint={`${zone.replaceAll('_', ' ')} time, the organisation's time zone (change it on the Profile page).`}
          error={errors.dailyTime?.message}
        >
          {(ids) => <Input {...ids} type="time" className="w-32" {...text('dailyTime')} />}
        </FormField>
      )}
      {values.trigger === 'arrival' && (
        <p className="text-muted-foreground text-xs">
          Bahi looks at the source every minute and starts a run when something new is there.
        </p>
      )}
    </fieldset>
  );
}
