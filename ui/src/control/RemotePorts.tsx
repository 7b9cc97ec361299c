import { useState } from "preact/hooks";
import { EmptyRow } from "../components/EmptyRow.tsx";
import { Modal } from "../components/Modal.tsx";
import { get, post } from "../lib/api.ts";
import { coinLabel } from "../lib/coins.ts";
import { t } from "../lib/i18n.ts";
import type { PortItem } from "../lib/port-types.ts";
import type { RemoteClient } from "../lib/remote-types.ts";
import { toast } from "../lib/toast.ts";
import { LINK, TD, TH } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";
import { StateBadge } from "../pool/StateBadge.tsx";

/** A remote instance's ports, read and opened/stopped through this instance (/api/remote/q/...). */
export function RemotePorts({ client, onClose }: { client: RemoteClient; onClose: () => void }) {
  const q = (method: string, path: string) =>
    `/api/remote/q/${client.id}/${method}/${encodeURIComponent(path)}`;
  const [items, reload] = useFetch(
    () => get<{ items: PortItem[] }>(q("GET", "ports")).then((r) => r.items),
    [client.id],
  );
  const [busy, setBusy] = useState<number | null>(null);
  const act = async (item: PortItem, action: "start" | "stop") => {
    setBusy(item.server.id);
    await post(q("POST", `port/${item.server.id}/${action}`)).then(
      () => toast("ok", t(action === "start" ? "port.started" : "port.stopped")),
      () => undefined,
    );
    setBusy(null);
    reload();
  };
  return (
    <Modal title={t("remote.ports_of", { name: client.remark })} onClose={onClose} wide testId="remote-ports">
      <table class="w-full text-sm">
        <thead>
          <tr>
            <th class={TH}>{t("port.port")}</th>
            <th class={TH}>{t("port.name")}</th>
            <th class={TH}>{t("port.currency")}</th>
            <th class={TH}>{t("port.online")}</th>
            <th class={TH}>{t("port.state")}</th>
            <th class={TH} />
          </tr>
        </thead>
        <tbody>
          {(items ?? []).map((i) => (
            <tr key={i.server.id} class="border-t border-line" data-remote-port={i.server.port}>
              <td class={`${TD} font-mono`}>{i.server.port}</td>
              <td class={TD}>{i.server.name || "-"}</td>
              <td class={TD}>{coinLabel(i.server.currency, t("lang.coin.nginx"))}</td>
              <td class={TD}>{i.stat?.online ?? 0}</td>
              <td class={TD}>
                <StateBadge state={i.state} />
              </td>
              <td class={TD}>
                <button
                  type="button"
                  class={LINK}
                  disabled={busy === i.server.id || i.state === "queuing"}
                  onClick={() => act(i, i.state === "active" ? "stop" : "start")}
                >
                  {t(i.state === "active" ? "port.menu_stop" : "port.menu_start")}
                </button>
              </td>
            </tr>
          ))}
          {items?.length === 0 && <EmptyRow cols={6} text={t("pool.empty")} />}
        </tbody>
      </table>
    </Modal>
  );
}
