import type { FlowTrigger } from '@bahi/contracts';

/** The wall-clock parts of `at` in `timeZone`. */
function zonedParts(at: Date, timeZone: string): { y: number; m: number; d: number; h: number; min: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { y: get('year'), m: get('month'), d: get('day'), h: get('hour'), min: get('minute') };
}

/** Milliseconds `timeZone` is ahead of UTC at the instant `at`. */
function zoneOffsetMs(at: Date, timeZone: string): number {
  const p = zonedParts(at, timeZone);
  const asUtc = Date.UTC(p.y, p.m - 1, p.d, p.h, p.min);
  return asUtc - Math.floor(at.getTime() / 60_000) * 60_000;
}

/** The instant the wall clock in `timeZone` reads y-m-d h:min (the offset re-read once, for DST edges). */
function zonedTimeToInstant(
  wall: { y: number; m: number; d: number; h: number; min: number },
  timeZone: string,
): Date {
  const guess = Date.UTC(wall.y, wall.m - 1, wall.d, wall.h, wall.min);
  const first = guess - zoneOffsetMs(new Date(guess), timeZone);
  return new Date(guess - zoneOffsetMs(new Date(first), timeZone));
}

/**
 * When a flow with `trigger` next runs by itself after `from`: `every` N minutes counts from `from` (the
 * last run, or when the schedule was saved); `daily` is the next HH:MM on the wall clock of its time zone.
 * Null for triggers that are not on a clock (manual, on arrival).
 */
export function nextRunAfter(trigger: FlowTrigger, from: Date): Date | null {
  if (trigger.kind === 'every') return new Date(from.getTime() + trigger.minutes * 60_000);
  if (trigger.kind !== 'daily') return null;
  const [h, min] = trigger.time.split(':').map(Number) as [number, number];
  const today = zonedParts(from, trigger.timeZone);
  const candidate = zonedTimeToInstant({ ...today, h, min }, trigger.timeZone);
  if (candidate.getTime() > from.getTime()) return candidate;
  // Tomorrow on the zone's calendar (Date.UTC rolls the day over the month's end).
  const next = new Date(Date.UTC(today.y, today.m - 1, today.d + 1));
  return zonedTimeToInstant(
    { y: next.getUTCFullYear(), m: next.getUTCMonth() + 1, d: next.getUTCDate(), h, min },
    trigger.timeZone,
  );
}
