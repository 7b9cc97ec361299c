import { useState } from "preact/hooks";
import { AddPresetPool } from "../dialogs/AddPresetPool.tsx";
import { AddPresetWallet } from "../dialogs/AddPresetWallet.tsx";
import { t } from "../lib/i18n.ts";
import { BTN_GHOST } from "../lib/ui.ts";

/** Quick pool presets and quick wallet presets. */
export function PresetSection() {
  const [open, setOpen] = useState<"" | "pool" | "wallet">("");
  return (
    <div class="flex flex-wrap gap-2">
      <button type="button" class={BTN_GHOST} onClick={() => setOpen("pool")}>
        {t("preset.add_pool")}
      </button>
      <button type="button" class={BTN_GHOST} onClick={() => setOpen("wallet")}>
        {t("preset.add_wallet")}
      </button>
      {open === "pool" && <AddPresetPool onClose={() => setOpen("")} />}
      {open === "wallet" && <AddPresetWallet onClose={() => setOpen("")} />}
    </div>
  );
}
