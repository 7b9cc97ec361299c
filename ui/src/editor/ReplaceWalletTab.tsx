import { Field } from "../components/Field.tsx";
import { t } from "../lib/i18n.ts";
import { INPUT } from "../lib/ui.ts";
import { errorFor, type TabProps } from "./types.ts";

/** Replace specified wallet: originals one per line, and the replacement. Both or neither. */
export function ReplaceWalletTab({ form, set, errors }: TabProps) {
  const err = (f: string) => {
    const k = errorFor(errors, f);
    return k ? t(k) : null;
  };
  return (
    <div class="space-y-3">
      <Field label={t("port.pattern_addr")} error={err("pattern_addr")} hint={t("port.one_per_line")}>
        <textarea
          class={`${INPUT} h-28 font-mono`}
          name="pattern_addr"
          value={form.pattern_addr}
          onInput={(e) => set({ pattern_addr: e.currentTarget.value })}
        />
      </Field>
      <Field label={t("port.replace_addr")} error={err("replace_addr")}>
        <input
          class={INPUT}
          name="replace_addr"
          value={form.replace_addr}
          onInput={(e) => set({ replace_addr: e.currentTarget.value })}
        />
      </Field>
    </div>
  );
}
