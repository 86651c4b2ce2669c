import type { Vendor } from '@bahi/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable } from '@/components/data-table.tsx';
import { Button } from '@/components/ui/button.tsx';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';
import { usePermission } from '../../lib/permissions.ts';
import { VendorTdsDialog } from './vendor-tds-dialog.tsx';
import { describe } from './vendor-tds-draft.ts';

/** The vendors' TDS profiles, each editable. */
export function VendorTdsProfiles() {
  const vendors = useQuery({
    // Its own key: the vendor master caches the list in another shape under ['vendors'].
    queryKey: ['tds', 'vendors'],
    queryFn: ({ signal }) => callEndpoint(api.listVendors, { signal }),
  });
  const [editing, setEditing] = useState<Vendor | null>(null);
  const edit = usePermission('vendors.edit');
  const items = vendors.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="vendor-tds-title" className="flex flex-col gap-2">
      <h2 id="vendor-tds-title" className="font-semibold text-lg">
        Vendors' TDS profiles
      </h2>
      <DataTable
        label="Vendors' TDS profiles"
        rows={items}
        rowKey={(v) => v.id}
        rowProps={() => ({ 'data-testid': 'vendor-tds' })}
        columns={[
          {
            key: 'vendor',
            header: 'Vendor',
            cell: (v) => (
              <>
                <span className="block font-medium">{v.name}</span>
                <span className="text-muted-foreground text-xs">PAN {v.pan ?? '—'}</span>
              </>
            ),
          },
          { key: 'tds', header: 'TDS', cell: (v) => describe(v.tds) },
          {
            key: 'edit',
            header: <span className="sr-only">Edit</span>,
            align: 'right',
            cell: (v) => (
              <Button
                size="sm"
                variant="outline"
                onClick={() => setEditing(v)}
                disabled={!edit.allowed}
                title={edit.reason ?? undefined}
                aria-label={`Edit TDS profile of ${v.name}`}
              >
                Edit
              </Button>
            ),
          },
        ]}
      />
      {editing && <VendorTdsDialog vendor={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}
