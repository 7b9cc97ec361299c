interface Tab {
  key: string;
  label: string;
  disabled?: boolean;
}
interface Props {
  tabs: Tab[];
  active: string;
  onSelect: (key: string) => void;
}

/** A tab strip (role tablist); arrow keys are not needed, each tab is a button in the tab order. */
export function Tabs({ tabs, active, onSelect }: Props) {
  return (
    <div role="tablist" class="mb-3 flex flex-wrap gap-1 border-b border-line">
      {tabs.map((tab) => (
        <button
          key={tab.key}
          type="button"
          role="tab"
          aria-selected={tab.key === active}
          disabled={tab.disabled}
          onClick={() => onSelect(tab.key)}
          class={`-mb-px border-b-2 px-3 py-1.5 text-sm disabled:opacity-40 ${tab.key === active ? "border-acc text-acc" : "border-transparent text-mute hover:text-fg"}`}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
