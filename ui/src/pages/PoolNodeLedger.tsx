import { get } from "../lib/api.ts";
import { formatCoins } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { CARD } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";
import { PoolNodeAddress } from "./PoolNodeAddress.tsx";
import { type Payout, PoolNodePayouts } from "./PoolNodePayouts.tsx";
import { PoolNodeRewards, type Reward } from "./PoolNodeRewards.tsx";

const REFRESH_MS = 10_000;

const list = <T,>(path: string) =>
  get<{ status: number; data?: T[] }>(path, { quiet: true }).then((r) =>
    r.status === 0 ? (r.data ?? []) : [],
  );

/** The node's ledger (docs/pool-node.md): the fee income, an address's balance, rewards and payouts. */
export function PoolNodeLedger({ coin }: { coin: string }) {
  const [rewards] = useFetch(() => list<Reward>("/api/poolnode/rewards"), [], REFRESH_MS);
  const [payouts] = useFetch(() => list<Payout>("/api/poolnode/payouts"), [], REFRESH_MS);
  const [profit] = useFetch(
    () => get<{ status: number; data?: { total: number } }>("/api/poolnode/profit", { quiet: true }),
    [],
    REFRESH_MS,
  );
  return (
    <>
      <section class={CARD} data-testid="poolnode-profit">
        <p class="text-sm">{t("poolnode.profit", { amount: formatCoins(profit?.data?.total ?? 0, coin) })}</p>
      </section>
      <PoolNodeAddress coin={coin} />
      <PoolNodeRewards rewards={rewards ?? []} coin={coin} />
      <PoolNodePayouts payouts={payouts ?? []} coin={coin} />
    </>
  );
}
