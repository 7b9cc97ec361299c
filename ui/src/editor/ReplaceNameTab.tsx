import { Field } from "../components/Field.tsx";
import { t } from "../lib/i18n.ts";
import { INPUT } from "../lib/ui.ts";
import { errorFor, type TabProps } from "./types.ts";

/** Replace miner name: names one per line (* matches all) and the replacement. Both or neither. */
export function ReplaceNameTab({ form, set, errors }: TabProps) {
  const err = (f: string) => {
    const k = errorFor(errors, f);
    return k ? t(k) : null;
  };
  return (
    <div class="space-y-3">
      <Field label={t("port.sd")} error={err("sd")} hint={t("port.sd_hint")}>
        <textarea
          class={`${INPUT} h-28 font-mono`}
          name="sd"
          value={form.sd}
          onInput={(e) => set({ sd: e.currentTarget.value })}
        />
      </Field>
      <Field label={t("port.st")} error={err("st")}>
        <input class={INPUT} name="st" value={form.st} onInput={(e) => set({ st: e.currentTarget.value })} />
      </Field>
    </div>
  );
}
