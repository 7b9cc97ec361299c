import { useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { Modal } from "../components/Modal.tsx";
import { post } from "../lib/api.ts";
import type { Device } from "../lib/device-types.ts";
import { formatHashrate, formatPercent, formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { percentToRatio } from "../lib/port-form.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY, INPUT_BASE } from "../lib/ui.ts";
import { validPercent } from "../lib/validate/port.ts";

interface Props {
  portId: number;
  device: Device;
  onClose: () => void;
  onChanged: () => void;
}

/** Every device field of spec §3, and the per-device ratio (set or clear). */
export function DeviceDetail({ portId, device: d, onClose, onChanged }: Props) {
  const [pct, setPct] = useState(String(Math.round(d.feeRatio * 10000) / 100));
  const hr = (v: { current: number; m15: number; h4: number; h24: number }) =>
    `${formatHashrate(v.current)} · ${formatHashrate(v.m15)} · ${formatHashrate(v.h4)} · ${formatHashrate(v.h24)}`;
  const rows: [string, string][] = [
    ["device.name", d.name],
    ["device.wallet", d.wallet],
    ["IP", d.ip],
    ["device.status", t(d.online ? "device.online" : "device.offline")],
    ["device.shares", `${d.valid} / ${d.invalid} / ${d.stale}`],
    ["device.hashrate_windows", hr(d.hashrate)],
    ["device.pumped_windows", hr(d.pumped)],
    ["device.local_hashrate", formatHashrate(d.localHashrate)],
    ["device.model", d.agent],
    ["device.difficulty", String(d.difficulty)],
    ["device.reconnects", `${d.reconnects} / ${d.disconnects}`],
    ["device.fee", `${formatPercent(d.feeRatio)} → ${formatPercent(d.feeAchieved)}`],
    ["device.algorithm", d.algorithm],
    ["device.latency", d.latencyMs ? `${d.latencyMs} ms` : "-"],
    ["device.login", formatTime(d.loginAt)],
    ["device.last_submit", formatTime(d.lastSubmitAt)],
    ["device.last_job", formatTime(d.lastJobAt)],
    ["device.concurrency", String(d.concurrency)],
  ];
  const setRatio = async (r: number | null) => {
    if (r !== null && !validPercent(pct)) {
      toast("err", t("lang.wallet.err_ratio"));
      return;
    }
    try {
      await post(`/api/port/${portId}/worker/ratio`, { worker: d.id, r });
      toast("ok", t(r === null ? "ratio.cleared" : "ratio.set"));
      onChanged();
    } catch {
      /* toast shown */
    }
  };
  return (
    <Modal title={t("device.details", { name: d.name })} onClose={onClose} wide testId="device-detail">
      <dl class="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
        {rows.map(([k, v]) => (
          <div key={k} class="flex justify-between gap-2 border-b border-line py-0.5">
            <dt class="text-mute">{k.includes(".") ? t(k) : k}</dt>
            <dd class="break-all text-right">{v || "-"}</dd>
          </div>
        ))}
      </dl>
      <div class="mt-3 flex flex-wrap items-end gap-2">
        <Field label={t("ratio.device")} hint={t("ratio.priority")}>
          <input
            class={`${INPUT_BASE} w-32`}
            type="number"
            min={0}
            max={100}
            step={0.01}
            value={pct}
            onInput={(e) => setPct(e.currentTarget.value)}
          />
        </Field>
        <button type="button" class={BTN_PRIMARY} onClick={() => setRatio(percentToRatio(pct))}>
          {t("ratio.set_btn")}
        </button>
        <button type="button" class={BTN_GHOST} onClick={() => setRatio(null)}>
          {t("ratio.clear_btn")}
        </button>
      </div>
    </Modal>
  );
}
