import { formatCoins, formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { CARD, TD, TH } from "../lib/ui.ts";

/** A payout as GET /api/poolnode/payouts gives it (amounts in base units). */
export interface Payout {
  id: number;
  created_at: number;
  state: "pending" | "sent" | "confirmed" | "failed";
  txid: string | null;
  total: number;
  error: string;
  /** a line with a withdrawal_id pays a sub-account's withdrawal, not the address's balance */
  items: { address: string; amount: number; withdrawal_id: number | null }[];
}

/** Each state's words, written out so that every key is a literal the catalogs test can find. */
function stateText(p: Payout): string {
  switch (p.state) {
    case "pending":
      return t("poolnode.payout_pending");
    case "sent":
      return t("poolnode.payout_sent");
    case "confirmed":
      return t("poolnode.payout_confirmed");
    case "failed":
      return t("poolnode.payout_failed", { reason: p.error });
  }
}

/** The payouts (one sendmany each), newest first, with their transaction and what each address got. */
export function PoolNodePayouts({ payouts, coin }: { payouts: Payout[]; coin: string }) {
  return (
    <section class={CARD} data-testid="poolnode-payouts">
      <h2 class="mb-2 font-semibold">{t("poolnode.payouts")}</h2>
      {payouts.length === 0 ? (
        <p class="text-sm text-mute">{t("poolnode.no_payouts")}</p>
      ) : (
        <table class="w-full text-sm">
          <thead>
            <tr>
              <th class={TH}>#</th>
              <th class={TH}>{t("poolnode.payout_time")}</th>
              <th class={TH}>{t("poolnode.block_status")}</th>
              <th class={TH}>{t("poolnode.payout_txid")}</th>
              <th class={TH}>{t("poolnode.payout_total")}</th>
              <th class={TH}>{t("poolnode.payout_items")}</th>
            </tr>
          </thead>
          <tbody>
            {payouts.map((p) => (
              <tr key={p.id} class="align-top" data-payout={p.id}>
                <td class={TD}>{p.id}</td>
                <td class={TD}>{formatTime(p.created_at)}</td>
                <td class={TD}>{stateText(p)}</td>
                <td class={`${TD} font-mono`} title={p.txid ?? ""}>
                  {p.txid === null ? "—" : `${p.txid.slice(0, 16)}…`}
                </td>
                <td class={TD}>{formatCoins(p.total, coin)}</td>
                <td class={TD}>
                  <ul>
                    {p.items.map((i) => (
                      <li key={`${i.address}:${i.withdrawal_id}`} data-address={i.address}>
                        <span class="font-mono">{i.address}</span> {formatCoins(i.amount, coin)}
                        {i.withdrawal_id !== null && (
                          <span class="text-mute">
                            {" "}
                            ({t("poolnode.payout_withdrawal", { id: i.withdrawal_id })})
                          </span>
                        )}
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
