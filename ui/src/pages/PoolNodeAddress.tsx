import { useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { get } from "../lib/api.ts";
import { formatCoins } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { BTN_PRIMARY, CARD, INPUT } from "../lib/ui.ts";

/** GET /api/poolnode/address/info's data. */
interface AddressInfo {
  address: string;
  balance: number;
  paid: number;
  window: { shares: number };
  workers: { worker: string; shares: number }[];
}

/** One miner address's balance, what it was paid, its shares in the window and its recent workers. */
export function PoolNodeAddress({ coin }: { coin: string }) {
  const [address, setAddress] = useState("");
  const [info, setInfo] = useState<AddressInfo | null>(null);
  const look = async () => {
    const r = await get<{ status: number; data?: AddressInfo }>(
      `/api/poolnode/address/info?address=${encodeURIComponent(address.trim())}`,
    ).catch(() => null);
    setInfo(r?.status === 0 && r.data ? r.data : null);
  };
  return (
    <section class={`${CARD} space-y-2`} data-testid="poolnode-address">
      <h2 class="font-semibold">{t("poolnode.address_title")}</h2>
      <form
        class="flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void look();
        }}
      >
        <Field label={t("poolnode.address")}>
          <input
            class={INPUT}
            name="address"
            value={address}
            onInput={(e) => setAddress(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" class={BTN_PRIMARY}>
          {t("poolnode.address_look")}
        </button>
      </form>
      {info && (
        <div class="text-sm" role="status">
          <p>
            {t("poolnode.address_balance", {
              balance: formatCoins(info.balance, coin),
              paid: formatCoins(info.paid, coin),
              shares: info.window.shares,
            })}
          </p>
          <p class="text-mute">
            {t("poolnode.address_workers", {
              workers: info.workers.map((w) => `${w.worker} (${w.shares})`).join(", ") || "—",
            })}
          </p>
        </div>
      )}
    </section>
  );
}
