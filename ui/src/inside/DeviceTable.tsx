import { useState } from "preact/hooks";
import type { DeviceSortKey } from "../../../appliance/domain/engine.ts";
import { EmptyRow } from "../components/EmptyRow.tsx";
import { Pager } from "../components/Pager.tsx";
import { get } from "../lib/api.ts";
import type { Device } from "../lib/device-types.ts";
import { formatHashrate, formatPercent, formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { INPUT, LINK, TD, TH } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";
import { DeviceDetail } from "./DeviceDetail.tsx";

type DeviceSort = Extract<
  DeviceSortKey,
  "name" | "wallet" | "hashrate" | "m15" | "valid" | "latency" | "loginAt" | "online"
>;

interface Page {
  total: number;
  items: Device[];
}

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

/**
 * Devices of the port, one page at a time: the server sorts, searches and pages (a farm port can
 * hold 10,000 devices; the whole list is megabytes). A row opens the details.
 */
export function DeviceTable({ portId, unit }: { portId: number; unit: string }) {
  const [q, setQ] = useState("");
  const [sort, setSort] = useState<DeviceSort>("hashrate");
  const [asc, setAsc] = useState(false);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(50);
  const query = new URLSearchParams({
    limit: String(size),
    offset: String((page - 1) * size),
    sort,
    order: asc ? "asc" : "desc",
    q: q.trim(),
  });
  const [data, reload] = useFetch(
    () => get<Page>(`/api/port/${portId}/workers?${query}`),
    [portId, query.toString()],
    15_000,
  );
  const [open, setOpen] = useState<Device | null>(null);
  const rows = data?.items ?? [];
  const by = (k: DeviceSort) => {
    if (k === sort) setAsc(!asc);
    else {
      setSort(k);
      setAsc(false);
    }
    setPage(1);
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
          onInput={(e) => {
            setQ(e.currentTarget.value);
            setPage(1);
          }}
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
                <td class={TD}>{formatHashrate(d.hashrate.current, unit)}</td>
                <td class={TD}>{formatHashrate(d.hashrate.m15, unit)}</td>
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
            {data && rows.length === 0 && <EmptyRow cols={9} text={t("device.none")} />}
          </tbody>
        </table>
      </div>
      {data && data.total > size && (
        <Pager
          page={page}
          pages={Math.max(1, Math.ceil(data.total / size))}
          size={size}
          total={data.total}
          onPage={setPage}
          onSize={(n) => {
            setSize(n);
            setPage(1);
          }}
        />
      )}
      {open && (
        <DeviceDetail
          portId={portId}
          device={open}
          unit={unit}
          onClose={() => setOpen(null)}
          onChanged={reload}
        />
      )}
    </div>
  );
}
