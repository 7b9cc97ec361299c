import { Suspense } from "preact/compat";
import { useState } from "preact/hooks";
import { useNavigate } from "react-router-dom";
import { HotWallets, PortEditor } from "../components/PortDialogs.ts";
import { feeUnavailable } from "../lib/coins.ts";
import { t } from "../lib/i18n.ts";
import { type PortAction, runPortAction } from "../lib/port-actions.ts";
import type { PortItem, RunState } from "../lib/port-types.ts";
import { currency } from "../lib/session.ts";
import { BTN_DANGER, BTN_GHOST } from "../lib/ui.ts";
import { useStore } from "../lib/use-store.ts";

/** Stop and open, each offered in the one state it leaves. */
const TOGGLES: [PortAction, RunState, string][] = [
  ["stop", "active", "port.menu_stop"],
  ["start", "closed", "port.menu_start"],
];

/**
 * The port page's top panel (spec §2): change (the editor), fast fee change (the hot update of the fee
 * wallets, miners stay connected), stop, start, delete. A coin relayed as is takes no fee: its fast fee
 * change is shown unavailable, with the reason, rather than opening an editor whose save is refused.
 */
export function PortActions({ item, onChanged }: { item: PortItem; onChanged: () => void }) {
  const nav = useNavigate();
  const cfg = useStore(currency);
  const [dialog, setDialog] = useState<"edit" | "hot" | null>(null);
  const [busy, setBusy] = useState(false);
  const { id, port, currency: coin } = item.server;
  const noFee = feeUnavailable(cfg[coin]);
  const locked = busy || item.state === "queuing";
  const act = async (action: PortAction) => {
    setBusy(true);
    const done = await runPortAction(action, id, port);
    setBusy(false);
    if (done && action === "delete") nav("/system/pool");
    else onChanged();
  };
  return (
    <div class="flex flex-wrap items-center gap-2" role="toolbar" aria-label={t("inside.actions")}>
      <button type="button" class={BTN_GHOST} disabled={locked} onClick={() => setDialog("edit")}>
        {t("inside.action_change")}
      </button>
      <button
        type="button"
        class={BTN_GHOST}
        disabled={locked || noFee}
        title={noFee ? t("lang.wallet.err_fee_unsupported") : undefined}
        onClick={() => setDialog("hot")}
      >
        {t("inside.action_fast_fee")}
      </button>
      {noFee && <span class="text-xs text-warn">{t("lang.wallet.err_fee_unsupported")}</span>}
      {TOGGLES.map(([action, from, label]) => (
        <button
          key={action}
          type="button"
          class={BTN_GHOST}
          disabled={locked || item.state !== from}
          onClick={() => act(action)}
        >
          {t(label)}
        </button>
      ))}
      <button type="button" class={BTN_DANGER} disabled={locked} onClick={() => act("delete")}>
        {t("port.menu_delete")}
      </button>
      <Suspense fallback={null}>
        {dialog === "edit" && (
          <PortEditor
            target={{ mode: "edit", id }}
            coin={coin}
            onClose={() => setDialog(null)}
            onSaved={() => {
              setDialog(null);
              onChanged();
            }}
          />
        )}
        {dialog === "hot" && <HotWallets portId={id} onClose={() => setDialog(null)} onSaved={onChanged} />}
      </Suspense>
    </div>
  );
}
