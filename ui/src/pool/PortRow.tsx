import { CoinBadge } from "../components/CoinBadge.tsx";
import { coinLabel } from "../lib/coins.ts";
import { formatPercent } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import type { PortItem } from "../lib/port-types.ts";
import { TD } from "../lib/ui.ts";
import { PortMenu } from "./PortMenu.tsx";
import { StateBadge } from "./StateBadge.tsx";

interface Props {
  item: PortItem;
  selected: boolean;
  onToggle: () => void;
  onReload: () => void;
  onEdit: (id: number) => void;
  onClone: (id: number) => void;
  onHot: (id: number) => void;
}

/** One port: number, remark, coin, pool, devices, latency, fee, state, menu. */
export function PortRow({ item, selected, onToggle, ...menu }: Props) {
  const s = item.server;
  const fee = item.wallets.reduce((a, w) => a + (w.ratio ?? 0), 0);
  return (
    <tr class="border-b border-line last:border-0 hover:bg-panel2" data-port={s.port}>
      <td class={TD}>
        <input
          type="checkbox"
          aria-label={t("pool.select_port", { port: s.port })}
          checked={selected}
          onChange={onToggle}
        />
      </td>
      <td class={`${TD} font-mono`}>{s.port}</td>
      <td class={`${TD} max-w-[10rem] truncate`}>{s.name || "-"}</td>
      <td class={TD}>
        <span class="inline-flex items-center gap-1">
          <CoinBadge coin={s.currency} size={16} />
          {coinLabel(s.currency, t("lang.coin.nginx"))}
        </span>
      </td>
      <td class={`${TD} max-w-[14rem] truncate font-mono text-xs`} title={s.pool_address}>
        {s.pool_address}
      </td>
      <td class={TD}>{item.stat?.online ?? 0}</td>
      <td class={TD}>{item.stat?.delay ? `${item.stat.delay} ms` : "-"}</td>
      <td class={TD}>{formatPercent(fee)}</td>
      <td class={TD}>
        <StateBadge state={item.state} />
      </td>
      <td class={TD}>
        <PortMenu item={item} {...menu} />
      </td>
    </tr>
  );
}
