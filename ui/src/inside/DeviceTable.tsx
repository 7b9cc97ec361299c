import { useState } from "preact/hooks";
import { get } from "../lib/api.ts";
import type { Device } from "../lib/device-types.ts";
import { type DeviceSort, searchDevices, sortDevices } from "../lib/devices.ts";
import { formatHashrate, formatPercent, formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { INPUT, LINK, TD, TH } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";
import { DeviceDetail } from "./DeviceDetail.tsx";

const COLS: [DeviceSort, string][] = [
  ["name", "device.name"],
  ["wallet", "device.wallet"],
  ["hashrate", "device.hashrate"],
  ["m15", "device.m15"],
  ["valid", "device.shares"],
  ["latency", "device.latency"],
  ["loginAt", "device.login"],
  ["online", "device.status"],
];

/** Devices of the port with sorting and search; a row opens the details. */
export function DeviceTable({ portId }: { portId: number }) {
  const [list, reload] = useFetch(() => get<Device[]>(`/api/port/${portId}/workers`), [portId], 15_000);
  const [q, setQ] = useState("");
  const [sort, setSort] = useState<DeviceSort>("hashrate");
  const [asc, setAsc] = useState(false);
  const [open, setOpen] = useState<Device | null>(null);
  const rows = sortDevices(searchDevices(list ?? [], q), sort, asc);
  const by = (k: DeviceSort) => {
    if (k === sort) setAsc(!asc);
    else {
      setSort(k);
      setAsc(false);
    }
  };
  return (
    <div class="space-y-2">
      <label class="block max-w-sm">
        <span class="sr-only">{t("device.search")}</span>
        <input
          class={INPUT}
          type="search"
          placeholder={t("device.search")}
          value={q}
          onInput={(e) => setQ(e.currentTarget.value)}
        />
      </label>
      <div class="overflow-x-auto rounded-lg border border-line bg-panel">
        <table class="w-full text-sm" data-testid="device-table">
          <thead>
            <tr>
              {COLS.map(([k, label]) => (
                <th
                  key={k}
                  class={TH}
                  aria-sort={k === sort ? (asc ? "ascending" : "descending") : undefined}
                >
                  <button type="button" class="hover:text-fg" onClick={() => by(k)}>
                    {t(label)} {k === sort ? (asc ? "▲" : "▼") : ""}
                  </button>
                </th>
              ))}
              <th class={TH}>{t("device.fee")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id} class="border-t border-line hover:bg-panel2">
                <td class={TD}>
                  <button type="button" class={LINK} onClick={() => setOpen(d)}>
                    {d.name || "-"}
                  </button>
                </td>
                <td class={`${TD} max-w-[12rem] truncate font-mono text-xs`}>{d.wallet}</td>
                <td class={TD}>{formatHashrate(d.hashrate.current)}</td>
                <td class={TD}>{formatHashrate(d.hashrate.m15)}</td>
                <td class={TD}>
                  <span class="text-ok">{d.valid}</span>/<span class="text-bad">{d.invalid}</span>/
                  <span class="text-mute">{d.stale}</span>
                </td>
                <td class={TD}>{d.latencyMs ? `${d.latencyMs} ms` : "-"}</td>
                <td class={TD}>{formatTime(d.loginAt)}</td>
                <td class={TD}>
                  <span class={d.online ? "text-ok" : "text-mute"}>
                    {t(d.online ? "device.online" : "device.offline")}
                  </span>
                </td>
                <td class={TD}>
                  {formatPercent(d.feeRatio)} → {formatPercent(d.feeAchieved)}
                </td>
              </tr>
            ))}
            {list && rows.length === 0 && (
              <tr>
                <td colSpan={9} class="p-6 text-center text-mute">
                  {t("device.none")}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {open && (
        <DeviceDetail portId={portId} device={open} onClose={() => setOpen(null)} onChanged={reload} />
      )}
    </div>
  );
}
