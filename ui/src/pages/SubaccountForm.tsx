import { useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { BTN_GHOST, BTN_PRIMARY, INPUT } from "../lib/ui.ts";
import type { Subaccount } from "./PoolNodeSubaccounts.tsx";

/**
 * A rebate ratio as the operator reads and types it: percent to the ten-thousandth (the ratio's
 * millionth), rounded so that 0.07 shows as 7, not 7.000000000000001.
 */
export const percent = (ratio: number) => String(Math.round(ratio * 1e6) / 1e4);

/** A new sub-account (null) or an edit: its name, member addresses (one a line) and, new, its rebate. */
export function SubaccountForm({
  subaccount,
  onClose,
  onSaved,
}: {
  subaccount: Subaccount | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [name, setName] = useState(subaccount?.name ?? "");
  const [addresses, setAddresses] = useState(subaccount?.addresses.join("\n") ?? "");
  const [rebate, setRebate] = useState(subaccount === null ? "0" : percent(subaccount.rebate));
  const save = async () => {
    const body = {
      ...(subaccount === null ? {} : { id: subaccount.id }),
      name,
      addresses: addresses
        .split(/\s+/)
        .map((a) => a.trim())
        .filter((a) => a !== ""),
      rebate: Number(rebate) / 100,
    };
    await post("/api/poolnode/subaccount/config", body).then(onSaved, () => undefined);
  };
  return (
    <form
      class="space-y-2 border-t border-line pt-2"
      data-testid="subaccount-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div class="grid gap-3 md:grid-cols-3">
        <Field label={t("poolnode.subaccount_name")}>
          <input class={INPUT} name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <Field label={t("poolnode.subaccount_addresses_hint")}>
          <textarea
            class={`${INPUT} font-mono`}
            name="addresses"
            rows={3}
            value={addresses}
            onInput={(e) => setAddresses(e.currentTarget.value)}
          />
        </Field>
        <Field label={t("poolnode.subaccount_rebate_percent")}>
          <input
            class={INPUT}
            name="rebate"
            inputMode="decimal"
            value={rebate}
            onInput={(e) => setRebate(e.currentTarget.value)}
          />
        </Field>
      </div>
      <div class="flex gap-2">
        <button type="submit" class={BTN_PRIMARY}>
          {t("common.save")}
        </button>
        <button type="button" class={BTN_GHOST} onClick={onClose}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
