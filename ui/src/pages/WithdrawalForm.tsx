import { useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { post } from "../lib/api.ts";
import { formatCoins, parseCoins } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { BTN_GHOST, BTN_PRIMARY, INPUT } from "../lib/ui.ts";
import type { Subaccount } from "./PoolNodeSubaccounts.tsx";

/** A withdrawal request for a sub-account: an amount in coins (sent in base units) and where to. */
export function WithdrawalForm({
  subaccount,
  coin,
  onClose,
  onSaved,
}: {
  subaccount: Subaccount;
  coin: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [amount, setAmount] = useState("");
  const [address, setAddress] = useState("");
  const units = parseCoins(amount);
  const submit = async () => {
    if (units === null) return;
    await post("/api/poolnode/withdrawal/submit", {
      subaccount_id: subaccount.id,
      amount: units,
      address: address.trim(),
    }).then(onSaved, () => undefined);
  };
  return (
    <form
      class="space-y-2 border-t border-line pt-2"
      data-testid="withdrawal-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p class="text-sm">
        {t("poolnode.withdraw_from", {
          name: subaccount.name,
          balance: formatCoins(subaccount.balance, coin),
        })}
      </p>
      <div class="grid gap-3 md:grid-cols-2">
        <Field
          label={t("poolnode.withdraw_amount", { coin })}
          error={amount !== "" && units === null ? t("poolnode.withdraw_bad_amount") : null}
        >
          <input
            class={INPUT}
            name="amount"
            inputMode="decimal"
            value={amount}
            onInput={(e) => setAmount(e.currentTarget.value)}
          />
        </Field>
        <Field label={t("poolnode.withdraw_address")}>
          <input
            class={`${INPUT} font-mono`}
            name="address"
            value={address}
            onInput={(e) => setAddress(e.currentTarget.value)}
          />
        </Field>
      </div>
      <div class="flex gap-2">
        <button type="submit" class={BTN_PRIMARY} disabled={units === null}>
          {t("poolnode.withdraw_submit")}
        </button>
        <button type="button" class={BTN_GHOST} onClick={onClose}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
