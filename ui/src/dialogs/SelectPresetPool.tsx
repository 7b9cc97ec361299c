import { useEffect, useState } from "preact/hooks";
import { Modal } from "../components/Modal.tsx";
import { PresetTable } from "../components/PresetTable.tsx";
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
      <PresetTable
        rows={rows}
        action={{
          label: t("preset.select"),
          onClick: (r) => {
            const p = presetToPool(r.address, r.deal ?? 0);
            onSelect(p.addr, p.mode);
          },
        }}
        empty={t("preset.no_pools", { coin })}
      />
    </Modal>
  );
}
