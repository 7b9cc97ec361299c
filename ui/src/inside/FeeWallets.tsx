import { EmptyRow } from "../components/EmptyRow.tsx";
import type { PortStatsView } from "../lib/device-types.ts";
import { formatPercent, formatPoints } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { TD, TH } from "../lib/ui.ts";

type Split = Pick<PortStatsView["fee"], "configured" | "target" | "achieved" | "gap">;

function Cells({ s }: { s: Split }) {
  return (
    <>
      <td class={TD}>{formatPercent(s.configured)}</td>
      <td class={TD}>{formatPercent(s.target)}</td>
      <td class={TD}>{formatPercent(s.achieved)}</td>
      <td class={TD}>{t("inside.points", { value: formatPoints(s.gap) })}</td>
    </>
  );
}

/**
 * Configured, target (effective, overrides weighted in), achieved and gap for the port and each of its
 * fee wallets: the engine's ledger of accepted work, i.e. the pools' tally.
 */
export function FeeWallets({ fee }: { fee: PortStatsView["fee"] }) {
  return (
    <div class="overflow-x-auto rounded-lg border border-line bg-panel">
      <table class="w-full text-sm" data-testid="fee-wallets">
        <thead>
          <tr>
            <th class={TH}>{t("inside.fee_wallet")}</th>
            <th class={TH}>{t("inside.fee_configured")}</th>
            <th class={TH}>{t("inside.fee_target")}</th>
            <th class={TH}>{t("inside.fee_achieved")}</th>
            <th class={TH}>{t("inside.fee_gap")}</th>
          </tr>
        </thead>
        <tbody>
          <tr class="border-t border-line font-medium">
            <td class={TD}>{t("inside.fee_port")}</td>
            <Cells s={fee} />
          </tr>
          {fee.wallets.map((w) => (
            <tr key={w.walletId} class="border-t border-line">
              <td class={`${TD} font-mono text-xs`}>{w.addr}</td>
              <Cells s={w} />
            </tr>
          ))}
          {fee.wallets.length === 0 && <EmptyRow cols={5} text={t("inside.fee_none")} />}
        </tbody>
      </table>
    </div>
  );
}
