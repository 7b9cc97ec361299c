import { formatCoins, formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { CARD, TD, TH } from "../lib/ui.ts";

/** A credited block as GET /api/poolnode/rewards gives it (amounts in base units). */
export interface Reward {
  hash: string;
  height: number;
  reward: number;
  credited_at: number;
  credits: {
    address: string;
    amount: number;
    kind: "pplns" | "fee" | "rebate";
    subaccount_id: number | null;
  }[];
}

/**
 * The blocks credited by PPLNS, newest first, each with its credit lines, the sub-accounts' rebates
 * (named from `subaccounts`) and the pool's fee line.
 */
export function PoolNodeRewards({
  rewards,
  coin,
  subaccounts,
}: {
  rewards: Reward[];
  coin: string;
  subaccounts: ReadonlyMap<number, string>;
}) {
  return (
    <section class={CARD} data-testid="poolnode-rewards">
      <h2 class="mb-2 font-semibold">{t("poolnode.rewards")}</h2>
      {rewards.length === 0 ? (
        <p class="text-sm text-mute">{t("poolnode.no_rewards")}</p>
      ) : (
        <table class="w-full text-sm">
          <thead>
            <tr>
              <th class={TH}>{t("poolnode.block_height")}</th>
              <th class={TH}>{t("poolnode.block_hash")}</th>
              <th class={TH}>{t("poolnode.reward")}</th>
              <th class={TH}>{t("poolnode.credited_at")}</th>
              <th class={TH}>{t("poolnode.credits")}</th>
            </tr>
          </thead>
          <tbody>
            {rewards.map((r) => (
              <tr key={r.hash} class="align-top">
                <td class={TD}>{r.height}</td>
                <td class={`${TD} font-mono`} title={r.hash}>
                  {r.hash.slice(0, 16)}…
                </td>
                <td class={TD}>{formatCoins(r.reward, coin)}</td>
                <td class={TD}>{formatTime(r.credited_at)}</td>
                <td class={TD}>
                  <ul>
                    {r.credits.map((c) =>
                      c.kind === "rebate" ? (
                        <li key={`rebate:${c.subaccount_id}`} data-subaccount={c.subaccount_id}>
                          <span class="text-mute">
                            (
                            {t("poolnode.rebate_line", { name: subaccounts.get(c.subaccount_id ?? 0) ?? "" })}
                            ){" "}
                          </span>
                          {formatCoins(c.amount, coin)}
                        </li>
                      ) : (
                        <li key={`${c.kind}:${c.address}`} data-address={c.address}>
                          <span class="font-mono">{c.address}</span>{" "}
                          {c.kind === "fee" && <span class="text-mute">({t("poolnode.fee_line")}) </span>}
                          {formatCoins(c.amount, coin)}
                        </li>
                      ),
                    )}
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
