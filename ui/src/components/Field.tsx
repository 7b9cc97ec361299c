import type { ComponentChildren } from "preact";

interface Props {
  label: string;
  error?: string | null;
  hint?: string;
  children: ComponentChildren;
  class?: string;
}

/** A labelled form control with its error text below. */
export function Field({ label, error, hint, children, class: cls = "" }: Props) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control comes in as children, inside the label
    <label class={`block ${cls}`}>
      <span class="mb-1 block text-xs text-mute">{label}</span>
      {children}
      {hint && !error && <span class="mt-0.5 block text-xs text-mute">{hint}</span>}
      {error && (
        <span role="alert" class="mt-0.5 block text-xs text-bad">
          {error}
        </span>
      )}
    </label>
  );
}
