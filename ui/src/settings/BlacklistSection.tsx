import { useState } from "preact/hooks";
import { Tabs } from "../components/Tabs.tsx";
import { t } from "../lib/i18n.ts";
import { BanList } from "./BanList.tsx";

/** IP blacklist and wallet blacklist. */
export function BlacklistSection() {
  const [kind, setKind] = useState<"ip" | "wallet">("wallet");
  return (
    <div>
      <Tabs
        active={kind}
        onSelect={(k) => setKind(k as "ip" | "wallet")}
        tabs={[
          { key: "wallet", label: t("ban.wallets") },
          { key: "ip", label: t("ban.ips") },
        ]}
      />
      <BanList key={kind} kind={kind} />
    </div>
  );
}
