import { feeUnavailable } from "../lib/coins.ts";
import { t } from "../lib/i18n.ts";
import { emptyWallet, MAX_WALLETS, type WalletRow } from "../lib/port-form.ts";
import { currency } from "../lib/session.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST } from "../lib/ui.ts";
import { useStore } from "../lib/use-store.ts";
import type { TabProps } from "./types.ts";
import { WalletRowEditor } from "./WalletRowEditor.tsx";

/**
 * Fee wallets: up to ten rows; the last row cannot be removed. For a coin relayed as is
 * (pass-through) the rows are shown disabled under a notice: the server refuses any ratio there.
 */
export function FeeTab({ form, set, errors }: TabProps) {
  const unavailable = feeUnavailable(useStore(currency)[form.currency]);
  const rows = form.wallets;
  const update = (i: number, patch: Partial<WalletRow>) =>
    set({ wallets: rows.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  const add = () => {
    if (rows.length >= MAX_WALLETS) toast("warn", t("lang.wallet.err_max"));
    else set({ wallets: [...rows, emptyWallet()] });
  };
  const remove = (i: number) => {
    if (rows.length <= 1) toast("warn", t("lang.wallet.err_min"));
    else set({ wallets: rows.filter((_, j) => j !== i) });
  };
  return (
    <div class="space-y-3">
      {form.mode === 1 && <p class="text-xs text-warn">{t("mode.compatible_warning")}</p>}
      {unavailable && (
        <p class="text-xs text-warn" data-testid="fee-unavailable">
          {t("lang.wallet.err_fee_unsupported")}
        </p>
      )}
      <fieldset disabled={unavailable} class="space-y-3">
        {rows.map((r, i) => (
          <WalletRowEditor
            key={i}
            index={i}
            row={r}
            coin={form.currency}
            errors={errors}
            poolLocked={form.mode === 1}
            onChange={(patch) => update(i, patch)}
            onRemove={() => remove(i)}
          />
        ))}
        <button type="button" class={BTN_GHOST} onClick={add} data-testid="add-wallet">
          + {t("editor.add_wallet")}
        </button>
      </fieldset>
    </div>
  );
}
