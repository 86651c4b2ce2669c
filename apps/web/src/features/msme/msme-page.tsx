import type { MsmeInvoice } from '@bahi/contracts';
import { useState } from 'react';
import { PageHeader } from '@/components/page-header.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { usePermission } from '@/lib/permissions.ts';
import { BankRates } from './bank-rates.tsx';
import { ImportCsv } from './msme-forms.tsx';
import { InvoicesSection } from './msme-invoices.tsx';
import { Payments, Vendors } from './msme-lists.tsx';
import { Exports, Totals } from './msme-summary.tsx';
import { PaymentDialog } from './payment-dialog.tsx';
import { useMsme } from './queries.ts';

/** `/msme`: MSME suppliers' invoices against the 45-day rule, payments, interest and the returns. */
export function MsmePage() {
  useDocumentTitle('MSME');
  const query = useMsme();
  const data = query.data;
  const [paying, setPaying] = useState<{ invoice: MsmeInvoice | null } | null>(null);
  const may = usePermission('vendors.edit');
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="MSME"
        description="Invoices of micro and small suppliers against the MSMED Act's payment days, the interest a late payment costs, and MSME Form-1 and the section 43B(h) list."
        actions={
          data && (
            <Button
              onClick={() => setPaying({ invoice: null })}
              disabled={!may.allowed || data.vendors.length === 0}
            >
              Record payment
            </Button>
          )
        }
      />
      {query.isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : query.isError || !data ? (
        <p role="alert" className="text-destructive">
          Couldn't load the MSME screen: {query.error?.message ?? 'no answer'}
        </p>
      ) : (
        <>
          <Totals data={data} />
          <div className="flex flex-wrap items-start justify-between gap-4">
            <BankRates data={data} />
            <ImportCsv />
          </div>
          <Exports today={data.today} />
          <InvoicesSection data={data} onPay={(invoice) => setPaying({ invoice })} />
          <Payments data={data} />
          <Vendors data={data} />
          {paying && <PaymentDialog data={data} invoice={paying.invoice} onClose={() => setPaying(null)} />}
        </>
      )}
    </div>
  );
}
