interface Props {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  disabled?: boolean;
}

/** A labelled checkbox. */
export function Check({ label, checked, onChange, disabled }: Props) {
  return (
    <label class="inline-flex cursor-pointer items-center gap-2 text-sm">
      <input
        type="checkbox"
        class="h-4 w-4 accent-[var(--acc)]"
        checked={checked}
        disabled={disabled}
        onChange={(e) => {
          // Fully controlled: the box shows the prop until the owner's state says otherwise.
          const next = e.currentTarget.checked;
          e.currentTarget.checked = checked;
          onChange(next);
        }}
      />
      {label}
    </label>
  );
}
