const inrCurrency = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  maximumFractionDigits: 0,
});
const inrNumber = new Intl.NumberFormat('en-IN');

/** Formats rupees with Indian digit grouping and no paise, e.g. `₹12,34,567`. */
export function formatInr(amount: number): string {
  return inrCurrency.format(amount);
}

/** Formats a count with Indian digit grouping, e.g. `1,00,000`. */
export function formatCount(value: number): string {
  return inrNumber.format(value);
}

/** Salutation for the local hour: before 12 morning, before 17 afternoon, otherwise evening. */
export function getGreeting(hour: number): 'Good morning' | 'Good afternoon' | 'Good evening' {
  if (hour < 12) return 'Good morning';
  if (hour < 17) return 'Good afternoon';
  return 'Good evening';
}

/** First word of a display name; falls back to the e-mail's local part, then "there". */
export function getFirstName(name: string | null | undefined, email?: string | null): string {
  const first = name?.trim().split(/\s+/)[0];
  if (first) return first;
  const local = email?.split('@')[0]?.trim();
  return local || 'there';
}

/**
 * Two-letter initials for an avatar: first letters of the first and last words of the name,
 * or the first two letters of a single word / the e-mail when there is no name.
 */
export function getInitials(name: string | null | undefined, email?: string | null): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length >= 2) {
    return `${[...words[0]!][0]}${[...words[words.length - 1]!][0]}`.toUpperCase();
  }
  const source = words[0] ?? email?.split('@')[0] ?? '';
  const letters = [...source.replace(/[^\p{L}\p{N}]/gu, '')];
  if (letters.length === 0) return '?';
  return letters.slice(0, 2).join('').toUpperCase();
}

const relativeFormat = new Intl.RelativeTimeFormat('en-IN', { numeric: 'auto' });
const absoluteFormat = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * Human time since `date`, e.g. "just now", "5 minutes ago", "yesterday"; dates older than a week
 * are shown absolutely ("3 Oct 2025") because "27 days ago" is harder to place.
 */
export function formatRelativeTime(date: string | Date, now: Date = new Date()): string {
  const then = typeof date === 'string' ? new Date(date) : date;
  const seconds = Math.round((then.getTime() - now.getTime()) / 1000);
  if (Number.isNaN(seconds)) return '';
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  if (abs < 3600) return relativeFormat.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relativeFormat.format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86_400) return relativeFormat.format(Math.round(seconds / 86_400), 'day');
  return absoluteFormat.format(then);
}

/**
 * A stored E.164 Indian number as people write it: mobiles `+91 98450 12345`, anything else (landlines,
 * foreign numbers) unchanged, because their grouping depends on the STD code.
 */
export function formatIndianPhone(e164: string): string {
  const mobile = /^\+91([6-9]\d{4})(\d{5})$/.exec(e164);
  return mobile ? `+91 ${mobile[1]} ${mobile[2]}` : e164;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Short age of a moment, as flow cards, inbox rows and review notes show it: "just now", "5m ago",
 * "3h ago", "2d ago". Compact on purpose — several of these sit on one card line.
 */
export function formatAgo(at: number | string | null | undefined, now: number = Date.now()): string {
  if (at === null || at === undefined) return '';
  const then = typeof at === 'number' ? at : Date.parse(at);
  if (Number.isNaN(then)) return '';
  // A clock a little ahead of ours still reads as "just now", not as a negative age.
  const elapsed = Math.max(0, now - then);
  if (elapsed < MINUTE) return 'just now';
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}m ago`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}h ago`;
  return `${Math.floor(elapsed / DAY)}d ago`;
}

const dateTimeFormat = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  hour: 'numeric',
  minute: '2-digit',
});

/**
 * Day and clock time of an event, e.g. "21 Nov, 5:16 pm" (a run's start in the history table, an
 * activity entry): several events a minute apart would all read "just now" relatively.
 */
export function formatDateTime(at: number | string | null | undefined, timeZone?: string): string {
  if (at === null || at === undefined) return '—';
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '—';
  const format = timeZone
    ? new Intl.DateTimeFormat('en-IN', {
        day: 'numeric',
        month: 'short',
        hour: 'numeric',
        minute: '2-digit',
        timeZone,
      })
    : dateTimeFormat;
  return format.format(date);
}

/**
 * Where one document of a batch file is: "Pages 3–4 of scan.pdf", "Page 2 of scan.pdf"; null for a
 * document that is its whole file (`pageRange` null).
 */
export function formatPageRange(
  pageRange: readonly [number, number] | null,
  fileName: string,
): string | null {
  if (!pageRange) return null;
  const [from, to] = pageRange;
  return from === to ? `Page ${from} of ${fileName}` : `Pages ${from}–${to} of ${fileName}`;
}
