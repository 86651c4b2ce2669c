import type { Vendor } from '@bahi/contracts';
import { formatIndianDate, formatIndianNumber } from '@bahi/india';
import { useQuery } from '@tanstack/react-query';
import { LinkIcon, PencilIcon } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { type DataColumn, DataTable } from '@/components/data-table.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';
import { usePermission } from '@/lib/permissions.ts';
import { CreateLinkDialog } from './create-link-dialog.tsx';
import { VendorDialog, vendorKeys } from './vendor-dialog.tsx';

/** The vendor master (`GET /api/vendors`). */
function useVendors() {
  return useQuery({
    queryKey: vendorKeys.all,
    queryFn: async ({ signal }) => (await callEndpoint(api.listVendors, { signal })).items,
  });
}

/** The vendor's name, what a person set about it (badges), and the other names its documents print. */
function VendorName({ v }: { v: Vendor }) {
  return (
    <>
      <span className="font-medium">{v.name}</span>
      {v.onboarded && (
        <Badge className="ml-2 border-transparent bg-emerald-100 text-emerald-900">Onboarded</Badge>
      )}
      {v.bankHold && (
        <Badge variant="destructive" className="ml-2">
          Bank change: invoices on hold
        </Badge>
      )}
      {v.msmeUdyam && <Badge className="ml-2 border-transparent bg-primary/10 text-primary">MSME</Badge>}
      {v.noPoNeeded && (
        <Badge className="ml-2 border-transparent bg-muted text-foreground">No PO needed</Badge>
      )}
      {v.namesSeen.length > 1 && (
        <div className="text-muted-foreground text-xs">
          Also printed as {v.namesSeen.filter((n) => n !== v.name).join(', ')}
        </div>
      )}
    </>
  );
}

/** The two things a row can do: send an onboarding link, or edit the vendor. */
function VendorActions({
  v,
  onLink,
  onEdit,
}: {
  v: Vendor;
  onLink: (v: Vendor) => void;
  onEdit: (v: Vendor) => void;
}) {
  const canEdit = usePermission('vendors.edit');
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => onLink(v)}
        disabled={!canEdit.allowed}
        title={canEdit.reason ?? `A link for ${v.name} with its name, PAN and GSTIN locked`}
        aria-label={`Send onboarding link to ${v.name}`}
      >
        <LinkIcon aria-hidden="true" />
        Onboarding link
      </Button>
      <Button size="sm" variant="ghost" onClick={() => onEdit(v)} aria-label={`Edit ${v.name}`}>
        <PencilIcon aria-hidden="true" />
        Edit
      </Button>
    </>
  );
}

/**
 * A header allowed to wrap (the table's headers do not by default): the vendor table has seven columns and
 * its long headers on two lines leave the name and the two buttons room on a laptop screen.
 */
function Wrapping({ children }: { children: ReactNode }) {
  return <span className="whitespace-normal">{children}</span>;
}

/** The vendor table's columns; the last holds the row's actions. */
function vendorColumns(onLink: (v: Vendor) => void, onEdit: (v: Vendor) => void): DataColumn<Vendor>[] {
  return [
    { key: 'vendor', header: 'Vendor', cell: (v) => <VendorName v={v} /> },
    {
      key: 'invoiced',
      header: <Wrapping>Invoiced (₹), verified</Wrapping>,
      align: 'right',
      cellProps: () => ({ 'data-testid': 'vendor-invoiced' }),
      cell: (v) => (
        <>
          {formatIndianNumber(v.invoicedTotal)}
          {v.awaitingReviewInvoices > 0 && (
            <div className="text-muted-foreground text-xs">
              + ₹{formatIndianNumber(v.awaitingReviewTotal)} awaiting review ({v.awaitingReviewInvoices})
            </div>
          )}
        </>
      ),
    },
    { key: 'gstin', header: 'GSTIN', cellClassName: 'font-mono text-xs', cell: (v) => v.gstin ?? '—' },
    { key: 'documents', header: 'Documents', align: 'right', cell: (v) => v.documents },
    {
      key: 'last',
      header: <Wrapping>Last document</Wrapping>,
      cellClassName: 'tabular-nums',
      cell: (v) => (v.lastDocumentDate ? (formatIndianDate(v.lastDocumentDate) ?? v.lastDocumentDate) : '—'),
    },
    {
      key: 'terms',
      header: 'Terms',
      cell: (v) => (v.paymentTermsDays === null ? 'Not agreed' : `${v.paymentTermsDays} days`),
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (v) => <VendorActions v={v} onLink={onLink} onEdit={onEdit} />,
    },
  ];
}

/** The vendors the organisation's documents name, with their totals, and what a person set. */
export function VendorMaster() {
  const vendors = useVendors();
  const [editing, setEditing] = useState<Vendor | null>(null);
  const [linking, setLinking] = useState<Vendor | null>(null);
  return (
    <section aria-labelledby="vendor-master-title" className="flex flex-col gap-3">
      <div>
        <h2 id="vendor-master-title" className="font-semibold text-lg tracking-tight">
          Vendors from your documents
        </h2>
        <p className="text-muted-foreground text-sm">
          Suppliers learned from verified documents: read with every check passed, or approved by a person
          (with their corrections). Mark MSME suppliers to track their 45-day payment clock.
        </p>
      </div>
      {vendors.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : vendors.isError ? (
        <p role="alert" className="text-destructive text-sm">
          Couldn't load the vendors: {vendors.error.message}
        </p>
      ) : vendors.data.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-muted-foreground text-sm">
          No vendors yet. A supplier appears here once one of its documents is verified: read with every check
          passed, or approved in Review.
        </p>
      ) : (
        <DataTable
          label="Vendors"
          tableClassName="min-w-[48rem]"
          columns={vendorColumns(setLinking, setEditing)}
          rows={vendors.data}
          rowKey={(v) => v.id}
          rowProps={() => ({ 'data-testid': 'vendor-row' })}
        />
      )}
      {editing && <VendorDialog vendor={editing} onClose={() => setEditing(null)} />}
      {linking && <CreateLinkDialog vendor={linking} onClose={() => setLinking(null)} />}
    </section>
  );
}
