import { type OrgType, orgTypeLabels, orgTypes } from '@bahi/contracts';
import type { RefCallBack } from 'react-hook-form';
import type { FieldIds } from '@/components/form-field.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';

/**
 * The organisation-type picker of the onboarding and profile forms: the contract's types with their
 * labels, driven by a react-hook-form `Controller`'s `field` and labelled by its `FormField`'s ids.
 */
export function OrgTypeSelect({
  field,
  ids,
  placeholder,
  onPick,
}: {
  field: {
    name: string;
    value: OrgType;
    onChange: (value: OrgType) => void;
    onBlur: () => void;
    ref: RefCallBack;
  };
  ids: FieldIds;
  placeholder?: string;
  /** Called after a type is picked (to clear the messages the pick answers). */
  onPick?: () => void;
}) {
  return (
    <Select
      name={field.name}
      value={field.value}
      onValueChange={(value) => {
        field.onChange(value as OrgType);
        onPick?.();
      }}
    >
      <SelectTrigger {...ids} ref={field.ref} onBlur={field.onBlur}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {orgTypes.map((type) => (
          <SelectItem key={type} value={type}>
            {orgTypeLabels[type]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
