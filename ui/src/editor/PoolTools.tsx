import { Suspense } from "preact/compat";
import { useState } from "preact/hooks";
import { lazyNamed } from "../components/lazyNamed.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { PingButton } from "./PingButton.tsx";

const SelectPool = lazyNamed(() => import("../dialogs/SelectPresetPool.tsx").then((m) => m.SelectPresetPool));

interface Props {
  /** the port's coin: presets are the coin's, and the test logs in the way its protocol does */
  coin: string;
  address: string;
  /** the pool's protocol code (spec §4 connect_mode) */
  mode: number;
  disabled?: boolean;
  /** the picker's text where the field has another picker beside it (a fee wallet's address) */
  label?: string;
  onSelect: (address: string, mode: number) => void;
}

/**
 * Beside every pool address field (spec §2: "each pool address field has an upstream connection test
 * with a preset-pool picker"): the preset picker, which needs a coin first, and the connection test.
 */
export function PoolTools({ coin, address, mode, disabled = false, label, onSelect }: Props) {
  const [picking, setPicking] = useState(false);
  const pick = () => (coin ? setPicking(true) : toast("warn", t("preset.choose_coin_first")));
  return (
    <>
      <button
        type="button"
        class="shrink-0 rounded border border-line px-2 text-sm hover:bg-panel2 disabled:opacity-50"
        disabled={disabled}
        onClick={pick}
      >
        {label ?? t("preset.pick")}
      </button>
      <PingButton address={address} connType={mode} currency={coin} disabled={disabled} />
      <Suspense fallback={null}>
        {picking && (
          <SelectPool
            coin={coin}
            onClose={() => setPicking(false)}
            onSelect={(addr, m) => {
              onSelect(addr, m);
              setPicking(false);
            }}
          />
        )}
      </Suspense>
    </>
  );
}
