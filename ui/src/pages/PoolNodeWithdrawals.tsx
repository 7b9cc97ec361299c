import { post } from "../lib/api.ts";
import { formatCoins, formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { BTN_DANGER, BTN_GHOST, BTN_PRIMARY, CARD, TD, TH } from "../lib/ui.ts";

/** A withdrawal as GET /api/poolnode/withdrawal/logs gives it (amount in base units). */
export interface Withdrawal {
  id: number;
  name: string;
  amount: number;
  address: string;
  state: "requested" | "approved" | "paid" | "refused";
  payout_id: number | null;
  txid: string | null;
  reason: string;
  created_at: number;
}

/** Each state's words, written out so that every key is a literal the catalogs test can find. */
function stateText(w: Withdrawal): string {
  switch (w.state) {
    case "requested":
      return t("poolnode.withdrawal_requested");
    case "approved":
      // a reason on an approved withdrawal is the wallet's, from the last payout that tried it
      return w.reason === ""
        ? t("poolnode.withdrawal_approved")
        : t("poolnode.withdrawal_unsent", { reason: w.reason });
    case "paid":
      return t("poolnode.withdrawal_paid", { payout: w.payout_id ?? "" });
    case "refused":
      return t("poolnode.withdrawal_refused", { reason: w.reason || "—" });
  }
}

/**
 * The withdrawals, newest first; a requested one is approved (paid with the next payout), refused, or
 * cancelled (it leaves the list; its amount is no longer held).
 */
export function PoolNodeWithdrawals({
  withdrawals,
  coin,
  onChange,
}: {
  withdrawals: Withdrawal[];
  coin: string;
  onChange: () => void;
}) {
  const decide = async (w: Withdrawal, verdict: "approve" | "refuse" | "cancel") => {
    await post(`/api/poolnode/withdrawal/${verdict}`, { id: w.id }).then(onChange, onChange);
  };
  return (
    <section class={CARD} data-testid="poolnode-withdrawals">
      <h2 class="mb-2 font-semibold">{t("poolnode.withdrawals")}</h2>
      {withdrawals.length === 0 ? (
        <p class="text-sm text-mute">{t("poolnode.no_withdrawals")}</p>
      ) : (
        <table class="w-full text-sm">
          <thead>
            <tr>
              <th class={TH}>#</th>
              <th class={TH}>{t("poolnode.payout_time")}</th>
              <th class={TH}>{t("poolnode.subaccount_name")}</th>
              <th class={TH}>{t("poolnode.withdraw_amount", { coin })}</th>
              <th class={TH}>{t("poolnode.withdraw_address")}</th>
              <th class={TH}>{t("poolnode.block_status")}</th>
              <th class={TH}>{t("poolnode.payout_txid")}</th>
              <th class={TH} />
            </tr>
          </thead>
          <tbody>
            {withdrawals.map((w) => (
              <tr key={w.id} class="align-top" data-withdrawal={w.id}>
                <td class={TD}>{w.id}</td>
                <td class={TD}>{formatTime(w.created_at)}</td>
                <td class={TD}>{w.name}</td>
                <td class={TD}>{formatCoins(w.amount, coin)}</td>
                <td class={`${TD} font-mono`}>{w.address}</td>
                <td class={TD} data-field="state">
                  {stateText(w)}
                </td>
                <td class={`${TD} font-mono`} title={w.txid ?? ""}>
                  {w.txid === null ? "—" : `${w.txid.slice(0, 16)}…`}
                </td>
                <td class={`${TD} space-x-1`}>
                  {w.state === "requested" && (
                    <>
                      <button type="button" class={BTN_PRIMARY} onClick={() => decide(w, "approve")}>
                        {t("poolnode.withdrawal_approve")}
                      </button>
                      <button type="button" class={BTN_DANGER} onClick={() => decide(w, "refuse")}>
                        {t("poolnode.withdrawal_refuse")}
                      </button>
                      <button type="button" class={BTN_GHOST} onClick={() => decide(w, "cancel")}>
                        {t("poolnode.withdrawal_cancel")}
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
