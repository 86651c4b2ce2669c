import type { MsmeView } from '@bahi/contracts';
import { useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { apiLinks } from '@/lib/endpoints.ts';
import { usePermission } from '@/lib/permissions.ts';
import { addDays, date, money } from './msme-format.ts';
import { financialYearOf, fyLabel } from './msme-forms.tsx';

/** Four figures at the top: due this week, overdue, interest, owed. */
export function Totals({ data }: { data: MsmeView }) {
  const t = data.totals;
  const cards = [
    {
      label: 'Pay this week',
      value: money(t.dueThisWeek),
      note: `${t.dueThisWeekCount} ${t.dueThisWeekCount === 1 ? 'invoice' : 'invoices'} due by ${date(addDays(data.today, 7))}`,
    },
    {
      label: 'Overdue',
      value: money(t.overdue),
      note:
        t.overdueCount === 1
          ? '1 invoice past its due date'
          : `${t.overdueCount} invoices past their due date`,
    },
    {
      label: 'Interest estimate (s.16)',
      value: t.interest === null ? 'Set the bank rate' : money(t.interest),
      note:
        t.interestUnpriced > 0
          ? `Without ${t.interestUnpriced} late ${t.interestUnpriced === 1 ? 'invoice' : 'invoices'} due before the first rate recorded`
          : 'Compound, monthly rests, 3× the bank rate on the due date',
    },
    {
      label: 'Owed to MSME suppliers',
      value: money(t.outstanding),
      note: 'Micro and small, covered invoices',
    },
  ];
  return (
    <section aria-label="Totals" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {cards.map((c) => (
        <div key={c.label} className="rounded-lg border bg-card p-3" data-testid={`total-${c.label}`}>
          <p className="text-muted-foreground text-xs">{c.label}</p>
          <p className="font-semibold text-lg tabular-nums">{c.value}</p>
          <p className="text-muted-foreground text-xs">{c.note}</p>
        </div>
      ))}
    </section>
  );
}

/** The half-year and year to download Form-1 and the 43B(h) list for. */
export function Exports({ today }: { today: string }) {
  const current = financialYearOf(today);
  const [year, setYear] = useState(
    String(Number(today.slice(5, 7)) >= 10 || Number(today.slice(5, 7)) <= 3 ? current : current - 1),
  );
  const [half, setHalf] = useState(
    Number(today.slice(5, 7)) >= 10 || Number(today.slice(5, 7)) <= 3 ? 'H1' : 'H2',
  );
  const years = [current - 2, current - 1, current];
  const may = usePermission('download');
  return (
    <section aria-label="Returns" className="flex flex-wrap items-end gap-2">
      <label className="flex flex-col gap-1 text-sm">
        <span className="text-muted-foreground text-xs">Financial year</span>
        <select
          className="h-9 rounded-md border bg-card px-2 text-sm"
          value={year}
          onChange={(e) => setYear(e.target.value)}
        >
          {years.map((y) => (
            <option key={y} value={y}>
              {fyLabel(y)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span className="text-muted-foreground text-xs">Half-year</span>
        <select
          className="h-9 rounded-md border bg-card px-2 text-sm"
          value={half}
          onChange={(e) => setHalf(e.target.value)}
        >
          <option value="H1">April–September</option>
          <option value="H2">October–March</option>
        </select>
      </label>
      <Button asChild variant="outline" size="sm" disabled={!may.allowed}>
        <a
          href={`${apiLinks.msmeForm1Xlsx}?financialYear=${year}&half=${half}`}
          download
          data-testid="download-form1"
        >
          Form-1 (.xlsx)
        </a>
      </Button>
      <Button asChild variant="outline" size="sm" disabled={!may.allowed}>
        <a href={`${apiLinks.msme43bhXlsx}?financialYear=${year}`} download data-testid="download-43bh">
          43B(h) list {fyLabel(Number(year))} (.xlsx)
        </a>
      </Button>
    </section>
  );
}
