import type { MsmeView } from '@bahi/contracts';
import { formatIndianDate } from '@bahi/india';
import { XIcon } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { usePermission } from '@/lib/permissions.ts';
import { errorsOf, Field } from './msme-forms.tsx';
import { useAddBankRate, useRemoveBankRate } from './queries.ts';

/**
 * The bank rates the interest estimate runs on, each from the day the Reserve Bank's change took effect.
 * An invoice's interest takes the rate in force on its due date, so adding today's rate leaves the
 * interest on older delays as it was.
 */
export function BankRates({ data }: { data: MsmeView }) {
  const add = useAddBankRate();
  const remove = useRemoveBankRate();
  const may = usePermission('settings.manage');
  const [rate, setRate] = useState('');
  const [from, setFrom] = useState(data.today);
  const [errors, setErrors] = useState<{ rate?: string; from?: string }>({});
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const pct = Number(rate.trim());
    if (rate.trim() === '' || !Number.isFinite(pct)) {
      setErrors({ rate: 'Enter the bank rate in percent as a number, like 6.5' });
      return;
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(from)) {
      setErrors({ from: 'Choose the day the rate took effect' });
      return;
    }
    setErrors({});
    try {
      await add.mutateAsync({ bankRatePct: pct, effectiveFrom: from });
      setRate('');
      toast.success(`Bank rate ${pct} % from ${formatIndianDate(from)} saved; interest worked out again`);
    } catch (err) {
      const { message, fields } = errorsOf(err);
      setErrors({
        rate: fields.bankRatePct ?? (fields.effectiveFrom ? undefined : message),
        from: fields.effectiveFrom,
      });
    }
  };
  return (
    <section aria-labelledby="bank-rates-title" className="flex flex-col gap-2">
      <h2 id="bank-rates-title" className="font-medium text-sm">
        Bank rate notified by RBI
      </h2>
      {data.bankRates.length === 0 ? (
        <p className="text-muted-foreground text-xs">None recorded: no interest estimate yet.</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm" aria-label="Bank rates">
          {data.bankRates.map((r) => (
            <li key={r.id} className="flex items-center gap-2" data-testid="bank-rate-row">
              <span className="tabular-nums">
                <span className="font-medium">{r.bankRatePct} %</span> from{' '}
                {formatIndianDate(r.effectiveFrom) ?? r.effectiveFrom}
              </span>
              <Button
                size="icon"
                variant="ghost"
                className="size-7"
                aria-label={`Remove the rate from ${formatIndianDate(r.effectiveFrom)}`}
                disabled={!may.allowed || remove.isPending}
                onClick={() =>
                  remove.mutate(r.id, {
                    onSuccess: () => toast.success('Bank rate removed; interest worked out again'),
                    onError: (err) => toast.error(err.message),
                  })
                }
              >
                <XIcon aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label="Add a bank rate">
        <Field label="Rate (%)" error={errors.rate}>
          <Input
            inputMode="decimal"
            className="w-24"
            value={rate}
            onChange={(e) => setRate(e.target.value)}
            disabled={!may.allowed}
            data-testid="bank-rate"
          />
        </Field>
        <Field label="In force from" error={errors.from}>
          <Input
            type="date"
            className="w-40"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            disabled={!may.allowed}
            data-testid="bank-rate-from"
          />
        </Field>
        <Button type="submit" variant="outline" size="sm" disabled={!may.allowed || add.isPending}>
          Add rate
        </Button>
      </form>
      <p className="max-w-md text-muted-foreground text-xs">
        Interest on each invoice runs at three times the rate in force on its due date.
        {may.reason && ` ${may.reason}`}
      </p>
    </section>
  );
}
