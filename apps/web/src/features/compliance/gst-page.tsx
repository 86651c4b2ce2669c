import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { GstView } from './gst-view.tsx';
import { TdsView } from './tds-view.tsx';

/** `/gst`: GSTR-2B matched against the books (with IMS actions), and TDS per invoice (`?view=tds`). */
export function GstPage() {
  useDocumentTitle('GST & TDS');
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'tds' ? 'tds' : 'gst';
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="GST & TDS"
        description="Each supplier's GSTR-2B documents matched with the invoices Bahi read, and the TDS each invoice carries."
      />
      <Tabs
        value={view}
        onValueChange={(v) => setParams(v === 'tds' ? { view: 'tds' } : {}, { replace: true })}
      >
        <TabsList>
          <TabsTrigger value="gst">GSTR-2B match</TabsTrigger>
          <TabsTrigger value="tds">TDS</TabsTrigger>
        </TabsList>
        <TabsContent value="gst">
          <GstView />
        </TabsContent>
        <TabsContent value="tds">
          <TdsView />
        </TabsContent>
      </Tabs>
    </div>
  );
}
