import { Check } from "../components/Check.tsx";
import { CoinBadge } from "../components/CoinBadge.tsx";
import { coinLabel } from "../lib/coins.ts";
import { t } from "../lib/i18n.ts";
import type { PortItem } from "../lib/port-types.ts";
import { coinCounts, filterCoins } from "../lib/ports.ts";
import { prefs, setPref } from "../lib/prefs.ts";
import { useStore } from "../lib/use-store.ts";

interface Props {
  coins: string[];
  items: PortItem[];
  selected: string;
  onSelect: (coin: string) => void;
}

/** Per-coin list with the two filters; "all" shows every port. */
export function CoinList({ coins, items, selected, onSelect }: Props) {
  const p = useStore(prefs);
  const counts = filterCoins(coinCounts(items, coins), p.hideDeProxyCoin, p.hideActiveCoin);
  const item = (coin: string, label: string, ports: number) => (
    <li key={coin}>
      <button
        type="button"
        aria-pressed={selected === coin}
        data-coin={coin}
        onClick={() => onSelect(coin)}
        class={`flex w-full items-center gap-2 rounded px-2 py-1 text-left text-sm ${selected === coin ? "bg-panel2 text-acc" : "hover:bg-panel2"}`}
      >
        {coin && <CoinBadge coin={coin} size={18} />}
        <span class="flex-1 truncate">{label}</span>
        <span class="text-xs text-mute">{ports}</span>
      </button>
    </li>
  );
  return (
    <aside
      class="rounded-lg border border-line bg-panel p-2 md:w-56 md:shrink-0"
      aria-label={t("pool.coins")}
    >
      <div class="mb-2 flex flex-col gap-1">
        <Check
          label={t("pool.hide_no_proxy")}
          checked={p.hideDeProxyCoin}
          onChange={(v) => setPref("hideDeProxyCoin", v)}
        />
        <Check
          label={t("pool.hide_no_activity")}
          checked={p.hideActiveCoin}
          onChange={(v) => setPref("hideActiveCoin", v)}
        />
      </div>
      <ul class="flex max-h-40 flex-col gap-0.5 overflow-y-auto md:max-h-[70vh]">
        {item("", t("pool.all_coins"), items.length)}
        {counts.map((c) => item(c.coin, coinLabel(c.coin, t("lang.coin.nginx")), c.ports))}
      </ul>
    </aside>
  );
}
