import { useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { Modal } from "../components/Modal.tsx";
import { get, post } from "../lib/api.ts";
import type { Device } from "../lib/device-types.ts";
import { formatHashrate, formatPercent, formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { percentToRatio } from "../lib/port-form.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY, INPUT_BASE } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";
import { validPercent } from "../lib/validate/port.ts";
import { DeviceConnectionLog } from "./DeviceConnectionLog.tsx";

interface Props {
  portId: number;
  /** the list's row: shown at once, then replaced by the device's own answer with its connection log */
  device: Device;
  /** what the coin's hashrate counts (formatHashrate) */
  unit: string;
  onClose: () => void;
  onChanged: () => void;
}

/** Every device field of spec §3, its connection log, and the per-device ratio (set or clear). */
export function DeviceDetail({ portId, device: row, unit, onClose, onChanged }: Props) {
  const [fresh, reload] = useFetch(
    () => get<Device>(`/api/stat/worker/${encodeURIComponent(row.id)}`),
    [row.id],
    15_000,
  );
  const d = fresh ?? row;
  const [pct, setPct] = useState(String(Math.round(row.feeRatio * 10000) / 100));
  const rate = (v: number) => formatHashrate(v, unit);
  const hr = (v: { current: number; m15: number; h4: number; h24: number }) =>
    `${rate(v.current)} · ${rate(v.m15)} · ${rate(v.h4)} · ${rate(v.h24)}`;
  const rows: [string, string][] = [
    ["device.name", d.name],
    ["device.wallet", d.wallet],
    ["IP", d.ip],
    ["device.status", t(d.online ? "device.online" : "device.offline")],
    ["device.shares", `${d.valid} / ${d.invalid} / ${d.stale}`],
    ["device.hashrate_windows", hr(d.hashrate)],
    ["device.pumped_windows", hr(d.pumped)],
    ["device.local_hashrate", rate(d.localHashrate)],
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
      reload();
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
      <DeviceConnectionLog events={fresh?.connectionLog ?? null} ip={d.ip} />
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
