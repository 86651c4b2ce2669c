import type * as React from 'react';

/**
 * A checkbox before its words, the whole line its label (a click on the words ticks it). `top` sets the
 * box by the first line of words that may wrap; `center` by a single line.
 */
export function CheckboxLabel({
  checked,
  onChange,
  disabled,
  align = 'center',
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  align?: 'center' | 'top';
  children: React.ReactNode;
}) {
  const top = align === 'top';
  return (
    <label className={top ? 'flex items-start gap-2 text-sm' : 'flex items-center gap-2 text-sm'}>
      <input
        type="checkbox"
        className={top ? 'mt-0.5 size-4' : 'size-4'}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        disabled={disabled}
      />
      {children}
    </label>
  );
}
