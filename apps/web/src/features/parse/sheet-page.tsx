import { useParams, useSearchParams } from 'react-router';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { useFlows } from '@/shared/flows/queries.ts';
import { useMailOAuthNotice } from './mail-oauth-notice.ts';
import { SheetView } from './sheet-view.tsx';

/** `/flows/:flowId/sheet` (`?tab=lines` for the line items): a flow's sheet view, on its own route. */
export function SheetPage() {
  const { flowId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const flows = useFlows();
  const flow = flows.data?.find((f) => f.id === flowId);
  useDocumentTitle(flow ? `${flow.name} — sheet` : 'Sheet');
  useMailOAuthNotice();
  const tab = searchParams.get('tab') === 'lines' ? 'lines' : 'documents';
  return <SheetView flowId={flowId} tab={tab} flow={flow} />;
}
