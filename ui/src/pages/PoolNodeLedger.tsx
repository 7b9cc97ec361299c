import { get } from "../lib/api.ts";
import { formatCoins } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { CARD } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";
import { PoolNodeAddress } from "./PoolNodeAddress.tsx";
import { type Payout, PoolNodePayouts } from "./PoolNodePayouts.tsx";
import { PoolNodeRewards, type Reward } from "./PoolNodeRewards.tsx";
import { PoolNodeSubaccounts, type Subaccount } from "./PoolNodeSubaccounts.tsx";
import { PoolNodeWithdrawals, type Withdrawal } from "./PoolNodeWithdrawals.tsx";

const REFRESH_MS = 10_000;

const list = <T,>(path: string) =>
  get<{ status: number; data?: T[] }>(path, { quiet: true }).then((r) =>
    r.status === 0 ? (r.data ?? []) : [],
  );

/**
 * The node's ledger (docs/pool-node.md): the fee income, an address's balance, rewards and payouts, the
 * sub-accounts and their withdrawals; a change to the last two reloads them and the payouts at once.
 */
export function PoolNodeLedger({ coin }: { coin: string }) {
  const [rewards] = useFetch(() => list<Reward>("/api/poolnode/rewards"), [], REFRESH_MS);
  const [payouts, reloadPayouts] = useFetch(() => list<Payout>("/api/poolnode/payouts"), [], REFRESH_MS);
  const [subaccounts, reloadSubaccounts] = useFetch(
    () => list<Subaccount>("/api/poolnode/subaccount/configs"),
    [],
    REFRESH_MS,
  );
  const [withdrawals, reloadWithdrawals] = useFetch(
    () => list<Withdrawal>("/api/poolnode/withdrawal/logs"),
    [],
    REFRESH_MS,
  );
  const changed = () => {
    reloadSubaccounts();
    reloadWithdrawals();
    reloadPayouts();
  };
  const names = new Map((subaccounts ?? []).map((s) => [s.id, s.name]));
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
      <PoolNodeRewards rewards={rewards ?? []} coin={coin} subaccounts={names} />
      <PoolNodePayouts payouts={payouts ?? []} coin={coin} />
      <PoolNodeSubaccounts subaccounts={subaccounts ?? []} coin={coin} onChange={changed} />
      <PoolNodeWithdrawals withdrawals={withdrawals ?? []} coin={coin} onChange={changed} />
    </>
  );
}
