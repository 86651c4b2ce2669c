import { DEFAULT_TIME_ZONE } from '@bahi/contracts';
import type { RefCallBack } from 'react-hook-form';
import type { FieldIds } from '@/components/form-field.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';

/** Every IANA zone this browser knows, Indian time first (most teams pick it, so it need not be scrolled to). */
export function listTimeZones(current?: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const rest = known.filter((zone) => zone !== DEFAULT_TIME_ZONE && zone !== current);
  return [DEFAULT_TIME_ZONE, ...(current && current !== DEFAULT_TIME_ZONE ? [current] : []), ...rest];
}

/** "Asia/Kolkata (UTC+05:30)": the zone with its offset today, so a person recognises it. */
export function describeTimeZone(zone: string, at = new Date()): string {
  try {
    const offset = new Intl.DateTimeFormat('en-GB', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value;
    return offset ? `${zone.replaceAll('_', ' ')} (${offset.replace('GMT', 'UTC') || 'UTC'})` : zone;
  } catch {
    return zone;
  }
}

/** The organisation time-zone picker of the profile form, driven by a react-hook-form `Controller`. */
export function TimeZoneSelect({
  field,
  ids,
}: {
  field: {
    name: string;
    value: string;
    onChange: (value: string) => void;
    onBlur: () => void;
    ref: RefCallBack;
  };
  ids: FieldIds;
}) {
  return (
    <Select name={field.name} value={field.value} onValueChange={field.onChange}>
      <SelectTrigger {...ids} ref={field.ref} onBlur={field.onBlur}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent className="max-h-80">
        {listTimeZones(field.value).map((zone) => (
          <SelectItem key={zone} value={zone}>
            {describeTimeZone(zone)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
