import { type FlowDocumentType, flowDocumentTypes } from '@bahi/contracts';
import { formatAgo, formatDateTime } from '../../lib/format.ts';

/** The three document kinds a flow can read (the contract's list). A flow reads exactly one of them. */
export const FLOW_TYPES = flowDocumentTypes;
/** One document kind of a flow. */
export type FlowType = FlowDocumentType;

/** "Last run 5m ago", or "Never run" for a flow that has not run. */
export function formatLastRun(
  lastRunAt: number | string | null | undefined,
  now: number = Date.now(),
): string {
  const ago = formatAgo(lastRunAt, now);
  return ago ? `Last run ${ago}` : 'Never run';
}

/** Run duration for the history table: "0.8s", "42s", "3m 05s", "1h 02m"; "—" while unknown. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** File size with binary units, e.g. "812 B", "86.4 KB", "3.2 MB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/**
 * Next type selection when the user ticks `type`. The three toggles look like checkboxes but a flow
 * reads one kind only: ticking another replaces the choice, ticking the chosen one clears it.
 */
export function toggleFlowType(selected: readonly FlowType[], type: FlowType): FlowType[] {
  return selected.includes(type) ? [] : [type];
}

/** Badge colour for a flow status: success and active are good news (green), the rest neutral. */
export function getStatusVariant(status: string): 'success' | 'secondary' {
  return status === 'success' || status === 'active' ? 'success' : 'secondary';
}

/** Human label for a flow status ("inactive" → "Inactive"). */
export function formatStatusLabel(status: string): string {
  if (!status) return 'Unknown';
  const spaced = status.replace(/[_-]+/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/**
 * End time of a run beside its start: just the clock time when it ended the same day ("5:43 pm"),
 * the full date and time otherwise; "—" while it has not ended.
 */
export function formatEndTime(
  startedAt: number | string,
  finishedAt: number | string | null | undefined,
  timeZone?: string,
): string {
  if (finishedAt === null || finishedAt === undefined) return '—';
  const start = new Date(startedAt);
  const end = new Date(finishedAt);
  if (Number.isNaN(end.getTime())) return '—';
  const day = new Intl.DateTimeFormat('en-IN', {
    day: 'numeric',
    month: 'numeric',
    year: 'numeric',
    timeZone,
  });
  if (!Number.isNaN(start.getTime()) && day.format(start) === day.format(end)) {
    return new Intl.DateTimeFormat('en-IN', { hour: 'numeric', minute: '2-digit', timeZone }).format(end);
  }
  return formatDateTime(finishedAt, timeZone);
}
