import { useState } from "preact/hooks";
import { post } from "../lib/api.ts";
import { ask } from "../lib/confirm.ts";
import { formatCoins } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { BTN_DANGER, BTN_GHOST, BTN_PRIMARY, CARD, INPUT_BASE, TD, TH } from "../lib/ui.ts";
import { percent, SubaccountForm } from "./SubaccountForm.tsx";
import { WithdrawalForm } from "./WithdrawalForm.tsx";

/** A sub-account as GET /api/poolnode/subaccount/configs gives it (amounts in base units). */
export interface Subaccount {
  id: number;
  name: string;
  addresses: string[];
  rebate: number;
  balance: number;
  held: number;
  paid: number;
}

/**
 * The sub-accounts: their member addresses, rebate (set in place), what each may withdraw, holds and
 * has been paid; a new one, an edit, a withdrawal request, a deletion (of one that holds nothing). Changes go to the server, which checks the
 * addresses with the daemon and asks for the password again.
 */
export function PoolNodeSubaccounts({
  subaccounts,
  coin,
  onChange,
}: {
  subaccounts: Subaccount[];
  coin: string;
  onChange: () => void;
}) {
  const [editing, setEditing] = useState<Subaccount | "new" | null>(null);
  const [withdrawing, setWithdrawing] = useState<Subaccount | null>(null);
  const [rebates, setRebates] = useState<Record<number, string>>({});
  const setRebate = async (s: Subaccount) => {
    const typed = rebates[s.id] ?? percent(s.rebate);
    await post("/api/poolnode/subaccount/rebate", { id: s.id, rebate: Number(typed) / 100 }).then(
      onChange,
      () => undefined,
    );
  };
  // the server refuses one that still has a balance or a request under way, and says so
  const remove = async (s: Subaccount) => {
    if (!(await ask(t("poolnode.subaccount_delete_confirm", { name: s.name }), true))) return;
    await post("/api/poolnode/subaccount/delete", { id: s.id }).then(onChange, () => undefined);
  };
  return (
    <section class={`${CARD} space-y-2`} data-testid="poolnode-subaccounts">
      <div class="flex items-center justify-between">
        <h2 class="font-semibold">{t("poolnode.subaccounts")}</h2>
        <button type="button" class={BTN_PRIMARY} onClick={() => setEditing("new")}>
          + {t("poolnode.subaccount_new")}
        </button>
      </div>
      {subaccounts.length === 0 ? (
        <p class="text-sm text-mute">{t("poolnode.no_subaccounts")}</p>
      ) : (
        <table class="w-full text-sm">
          <thead>
            <tr>
              <th class={TH}>{t("poolnode.subaccount_name")}</th>
              <th class={TH}>{t("poolnode.subaccount_addresses")}</th>
              <th class={TH}>{t("poolnode.subaccount_rebate")}</th>
              <th class={TH}>{t("poolnode.subaccount_balance")}</th>
              <th class={TH}>{t("poolnode.subaccount_held")}</th>
              <th class={TH}>{t("poolnode.subaccount_paid")}</th>
              <th class={TH} />
            </tr>
          </thead>
          <tbody>
            {subaccounts.map((s) => (
              <tr key={s.id} class="align-top" data-subaccount={s.name}>
                <td class={TD}>{s.name}</td>
                <td class={`${TD} font-mono`}>
                  <ul>
                    {s.addresses.map((a) => (
                      <li key={a}>{a}</li>
                    ))}
                  </ul>
                </td>
                <td class={TD}>
                  <input
                    class={`${INPUT_BASE} w-20`}
                    name="rebate"
                    inputMode="decimal"
                    value={rebates[s.id] ?? percent(s.rebate)}
                    onInput={(e) => setRebates({ ...rebates, [s.id]: e.currentTarget.value })}
                  />{" "}
                  %{" "}
                  <button type="button" class={BTN_GHOST} onClick={() => setRebate(s)}>
                    {t("poolnode.subaccount_set_rebate")}
                  </button>
                </td>
                <td class={TD} data-field="balance">
                  {formatCoins(s.balance, coin)}
                </td>
                <td class={TD} data-field="held">
                  {formatCoins(s.held, coin)}
                </td>
                <td class={TD} data-field="paid">
                  {formatCoins(s.paid, coin)}
                </td>
                <td class={`${TD} space-x-1`}>
                  <button type="button" class={BTN_GHOST} onClick={() => setEditing(s)}>
                    {t("common.edit")}
                  </button>
                  <button type="button" class={BTN_GHOST} onClick={() => setWithdrawing(s)}>
                    {t("poolnode.withdraw")}
                  </button>
                  <button type="button" class={BTN_DANGER} onClick={() => remove(s)}>
                    {t("common.delete")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing !== null && (
        <SubaccountForm
          subaccount={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            onChange();
          }}
        />
      )}
      {withdrawing !== null && (
        <WithdrawalForm
          subaccount={withdrawing}
          coin={coin}
          onClose={() => setWithdrawing(null)}
          onSaved={() => {
            setWithdrawing(null);
            onChange();
          }}
        />
      )}
    </section>
  );
}
