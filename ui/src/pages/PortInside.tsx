import { Link, useSearchParams } from "react-router-dom";
import { Tabs } from "../components/Tabs.tsx";
import { DeviceTable } from "../inside/DeviceTable.tsx";
import { FeeSummary } from "../inside/FeeSummary.tsx";
import { IpList } from "../inside/IpList.tsx";
import { PortLog } from "../inside/PortLog.tsx";
import { WalletTable } from "../inside/WalletTable.tsx";
import { coinLabel } from "../lib/coins.ts";
import { t } from "../lib/i18n.ts";
import { getPort } from "../lib/port-api.ts";
import { prefs, setPref } from "../lib/prefs.ts";
import { useStore } from "../lib/use-store.ts";
import { useFetch } from "../lib/useFetch.ts";
import { StateBadge } from "../pool/StateBadge.tsx";

const TABS = ["devices", "wallets", "ips", "log"];

/** Device list of one port (?id=): devices, wallets, connection log, port log, fee achieved. */
export function PortInside() {
  const [params] = useSearchParams();
  const id = Number(params.get("id"));
  const p = useStore(prefs);
  const tab = TABS[p.listTab] ?? "devices";
  const setTab = (k: string) => setPref("listTab", Math.max(0, TABS.indexOf(k)));
  const [item] = useFetch(() => getPort(id), [id]);
  if (!Number.isInteger(id) || id <= 0) return <p class="text-mute">{t("inside.no_port")}</p>;
  return (
    <div class="space-y-3" data-testid="port-inside">
      <div class="flex flex-wrap items-center gap-3">
        <Link to="/system/pool" class="text-sm text-acc hover:underline">
          ← {t("nav.pool")}
        </Link>
        <h1 class="text-lg font-semibold">
          {t("inside.title", { port: item?.server.port ?? id })}{" "}
          {item && `· ${coinLabel(item.server.currency, t("lang.coin.nginx"))}`}
        </h1>
        {item && <StateBadge state={item.state} />}
        <span class="text-sm text-mute">{item?.server.name}</span>
      </div>
      <FeeSummary portId={id} />
      <Tabs
        active={tab}
        onSelect={setTab}
        tabs={[
          { key: "devices", label: t("inside.devices") },
          { key: "wallets", label: t("inside.wallets") },
          { key: "ips", label: t("inside.ips") },
          { key: "log", label: t("inside.log") },
        ]}
      />
      {tab === "devices" && <DeviceTable portId={id} />}
      {tab === "wallets" && <WalletTable portId={id} wallets={item?.wallets ?? []} />}
      {tab === "ips" && <IpList portId={id} />}
      {tab === "log" && <PortLog portId={id} />}
    </div>
  );
}
