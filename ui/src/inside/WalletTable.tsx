import { Suspense } from "preact/compat";
import { useState } from "preact/hooks";
import { EmptyRow } from "../components/EmptyRow.tsx";
import { lazyNamed } from "../components/lazyNamed.ts";
import { del, get, post } from "../lib/api.ts";
import type { WalletRowView } from "../lib/device-types.ts";
import { formatHashrate, formatPercent } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import type { WireWallet } from "../lib/port-types.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, LINK, TD, TH } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

const PumpDialog = lazyNamed(() => import("../dialogs/PumpDialog.tsx").then((m) => m.PumpDialog));

interface RatioItem {
  addr: string;
  id: number;
  ratio: number;
}

/** Miner wallets of the port: favourites, per-wallet ratio (set via the pump dialog, or restore). */
export function WalletTable({
  portId,
  wallets,
  unit,
}: {
  portId: number;
  wallets: WireWallet[];
  unit: string;
}) {
  const [rows, reload] = useFetch(() => get<WalletRowView[]>(`/api/port/${portId}/g/wallets/0`), [portId]);
  const [ratios, reloadRatios] = useFetch(
    () => get<RatioItem[]>(`/api/port/${portId}/wallet/ratio`),
    [portId],
  );
  const [pump, setPump] = useState(false);
  const ratioOf = (w: string) => ratios?.find((r) => r.addr === w)?.ratio;
  const star = async (w: WalletRowView) => {
    await post(`/api/port/${portId}/wallet/collect`, { wallet: w.wallet, collect: !w.collect }).then(
      reload,
      () => toast("err", t("wallets.fav_failed")),
    );
  };
  const restore = async (wallet: string) => {
    await del(`/api/port/${portId}/wallet/${encodeURIComponent(wallet)}/ratio`).then(
      () => {
        toast("ok", t("ratio.restored"));
        reloadRatios();
      },
      () => undefined,
    );
  };
  const list = [...(rows ?? [])].sort((a, b) => Number(Boolean(b.collect)) - Number(Boolean(a.collect)));
  return (
    <div class="space-y-2">
      <button type="button" class={BTN_GHOST} onClick={() => setPump(true)} disabled={list.length === 0}>
        {t("pump.open")}
      </button>
      <div class="overflow-x-auto rounded-lg border border-line bg-panel">
        <table class="w-full text-sm" data-testid="wallet-table">
          <thead>
            <tr>
              <th class={TH}>★</th>
              <th class={TH}>{t("device.wallet")}</th>
              <th class={TH}>{t("inside.online")}</th>
              <th class={TH}>{t("device.hashrate")}</th>
              <th class={TH}>{t("ratio.wallet")}</th>
              <th class={TH} />
            </tr>
          </thead>
          <tbody>
            {list.map((w) => (
              <tr key={w.wallet} class="border-t border-line">
                <td class={TD}>
                  <button
                    type="button"
                    aria-pressed={Boolean(w.collect)}
                    aria-label={t("wallets.favourite")}
                    class={w.collect ? "text-acc" : "text-mute"}
                    onClick={() => star(w)}
                  >
                    ★
                  </button>
                </td>
                <td class={`${TD} font-mono text-xs`}>{w.wallet}</td>
                <td class={TD}>
                  {w.online} / {w.devices}
                </td>
                <td class={TD}>{formatHashrate(w.hashrate.current, unit)}</td>
                <td class={TD}>
                  {ratioOf(w.wallet) !== undefined
                    ? formatPercent(ratioOf(w.wallet) ?? 0)
                    : t("ratio.port_default")}
                </td>
                <td class={TD}>
                  {ratioOf(w.wallet) !== undefined && (
                    <button type="button" class={LINK} onClick={() => restore(w.wallet)}>
                      {t("ratio.restore_btn")}
                    </button>
                  )}
                </td>
              </tr>
            ))}
            {rows?.length === 0 && <EmptyRow cols={6} text={t("common.empty")} />}
          </tbody>
        </table>
      </div>
      {wallets.length > 0 && <p class="text-xs text-mute">{t("ratio.priority")}</p>}
      <Suspense fallback={null}>
        {pump && (
          <PumpDialog
            portId={portId}
            wallets={list.map((w) => w.wallet)}
            current={ratios ?? []}
            onClose={() => setPump(false)}
            onDone={() => {
              setPump(false);
              reloadRatios();
            }}
          />
        )}
      </Suspense>
    </div>
  );
}
