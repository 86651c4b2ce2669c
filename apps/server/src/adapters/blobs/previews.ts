import { join } from 'node:path';

/**
 * Where a flow's page pictures (the review screen's previews) are kept: DATA_DIR/previews/<organisation>/<flow>.
 * They are drawn again on demand, so the folder may be deleted at any time; it goes with its flow.
 */
export function getPreviewDir(dataDir: string, organizationId: string, flowId: string): string {
  return join(dataDir, 'previews', organizationId, flowId);
}
