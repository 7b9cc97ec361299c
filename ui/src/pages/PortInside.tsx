import { useCallback, useEffect, useState } from "preact/hooks";
import { Link, useSearchParams } from "react-router-dom";
import { Tabs } from "../components/Tabs.tsx";
import { DeviceTable } from "../inside/DeviceTable.tsx";
import { FeeSummary } from "../inside/FeeSummary.tsx";
import { IpList } from "../inside/IpList.tsx";
import { PortActions } from "../inside/PortActions.tsx";
import { PortLog } from "../inside/PortLog.tsx";
import { WalletTable } from "../inside/WalletTable.tsx";
import { ApiError, get } from "../lib/api.ts";
import { coinLabel, hashUnit } from "../lib/coins.ts";
import { t } from "../lib/i18n.ts";
import type { PortItem } from "../lib/port-types.ts";
import { prefs, setPref } from "../lib/prefs.ts";
import { currency } from "../lib/session.ts";
import { toast } from "../lib/toast.ts";
import { useStore } from "../lib/use-store.ts";
import { StateBadge } from "../pool/StateBadge.tsx";

const TABS = ["devices", "wallets", "ips", "log"];

type Loaded = { item: PortItem } | { missing: true } | null;

/**
 * Device list of one port (?id=): the top panel of actions, devices, wallets, connection log, port log,
 * fee achieved. The port is loaded first: a port that does not exist is said once, here, instead of
 * every part of the page failing on its own call.
 */
export function PortInside() {
  const [params] = useSearchParams();
  const id = Number(params.get("id"));
  const valid = Number.isInteger(id) && id > 0;
  const p = useStore(prefs);
  const cfg = useStore(currency);
  const tab = TABS[p.listTab] ?? "devices";
  const setTab = (k: string) => setPref("listTab", Math.max(0, TABS.indexOf(k)));
  const [loaded, setLoaded] = useState<Loaded>(null);
  // bumped after an action, so that the figures are read again at once
  const [version, setVersion] = useState(0);
  const load = useCallback(() => {
    if (!valid) return;
    get<PortItem>(`/api/port/${id}`, { quiet: true }).then(
      (item) => setLoaded({ item }),
      (e: unknown) => {
        if (e instanceof ApiError && e.status === 404) setLoaded({ missing: true });
        else if (e instanceof ApiError) toast("err", e.text);
      },
    );
  }, [id, valid]);
  useEffect(load, [load]);
  if (!valid) return <p class="text-mute">{t("inside.no_port")}</p>;
  if (loaded && "missing" in loaded)
    return (
      <div class="space-y-2" data-testid="port-inside">
        <p role="alert" class="text-bad">
          {t("inside.port_missing", { id })}
        </p>
        <Link to="/system/pool" class="text-sm text-acc hover:underline">
          ← {t("nav.pool")}
        </Link>
      </div>
    );
  const item = loaded?.item ?? null;
  const unit = hashUnit(cfg[item?.server.currency ?? ""]);
  const changed = () => {
    load();
    setVersion((v) => v + 1);
  };
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
      {item && (
        <>
          <PortActions item={item} onChanged={changed} />
          <FeeSummary key={version} portId={id} unit={unit} />
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
          {tab === "devices" && <DeviceTable portId={id} unit={unit} />}
          {tab === "wallets" && <WalletTable portId={id} wallets={item.wallets} unit={unit} />}
          {tab === "ips" && <IpList portId={id} />}
          {tab === "log" && <PortLog portId={id} />}
        </>
      )}
    </div>
  );
}
