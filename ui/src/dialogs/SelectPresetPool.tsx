import { useEffect, useState } from "preact/hooks";
import { Modal } from "../components/Modal.tsx";
import { Tabs } from "../components/Tabs.tsx";
import { t } from "../lib/i18n.ts";
import {
  type BuiltinPool,
  type CustomPool,
  loadBuiltinPools,
  loadEndpoint,
  poolsOfCoin,
  presetToPool,
} from "../lib/presets.ts";
import { LINK, TD, TH } from "../lib/ui.ts";

interface Props {
  coin: string;
  onClose: () => void;
  onSelect: (addr: string, mode: number) => void;
}

/** Select preset pool: built-in and custom pools of the coin; select hands the row back and closes. */
export function SelectPresetPool({ coin, onClose, onSelect }: Props) {
  const [tab, setTab] = useState("builtin");
  const [builtin, setBuiltin] = useState<BuiltinPool[]>([]);
  const [custom, setCustom] = useState<CustomPool[]>([]);
  useEffect(() => {
    loadBuiltinPools()
      .then((l) => setBuiltin(poolsOfCoin(l, coin)))
      .catch(() => undefined);
    loadEndpoint()
      .then((s) => setCustom(poolsOfCoin(s.customPool, coin)))
      .catch(() => undefined);
  }, [coin]);
  const rows =
    tab === "builtin"
      ? builtin.map((p) => ({ name: p.content, address: p.url, deal: p.protocol }))
      : custom.map((p) => ({ name: p.name, address: p.address, deal: p.deal }));
  return (
    <Modal title={t("preset.select_pool", { coin })} onClose={onClose} testId="select-pool">
      <Tabs
        active={tab}
        onSelect={setTab}
        tabs={[
          { key: "builtin", label: t("preset.builtin") },
          { key: "custom", label: t("preset.custom") },
        ]}
      />
      <table class="w-full text-sm">
        <thead>
          <tr>
            <th class={TH}>{t("preset.name")}</th>
            <th class={TH}>{t("preset.address")}</th>
            <th class={TH} />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.name}${r.address}`} class="border-t border-line">
              <td class={TD}>{r.name}</td>
              <td class={`${TD} font-mono text-xs`}>{r.address}</td>
              <td class={TD}>
                <button
                  type="button"
                  class={LINK}
                  onClick={() => {
                    const p = presetToPool(r.address, r.deal);
                    onSelect(p.addr, p.mode);
                  }}
                >
                  {t("preset.select")}
                </button>
              </td>
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={3} class="p-4 text-center text-mute">
                {t("preset.no_pools", { coin })}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </Modal>
  );
}
