/** Status words of a flow's document, as the inbox and the review screen show them. */
export function formatDocumentStatus(status: string): {
  label: string;
  tone: 'new' | 'working' | 'done' | 'review' | 'failed';
} {
  switch (status) {
    case 'done':
      return { label: 'Done', tone: 'done' };
    case 'failed':
      return { label: 'Failed', tone: 'failed' };
    case 'needs_review':
      return { label: 'Needs review', tone: 'review' };
    case 'processing':
      return { label: 'Processing', tone: 'working' };
    case 'removed':
      return { label: 'Removed', tone: 'failed' };
    case 'skipped':
      return { label: 'Skipped', tone: 'failed' };
    default:
      return { label: 'New', tone: 'new' };
  }
}
