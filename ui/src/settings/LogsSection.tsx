import { useState } from "preact/hooks";
import { Tabs } from "../components/Tabs.tsx";
import { get } from "../lib/api.ts";
import { formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { useFetch } from "../lib/useFetch.ts";
import { AuditLog } from "./AuditLog.tsx";

interface Row {
  id?: number;
  at?: string;
  time?: string;
  message: string;
}

const KINDS = ["running", "error", "update", "request", "audit"] as const;

/** Runtime, error, update and request logs, and the audit log of configuration changes. */
export function LogsSection() {
  const [kind, setKind] = useState<string>("running");
  return (
    <div>
      <Tabs active={kind} onSelect={setKind} tabs={KINDS.map((k) => ({ key: k, label: t(`logs.${k}`) }))} />
      {kind === "audit" ? <AuditLog /> : <PlainLog kind={kind} />}
    </div>
  );
}

function PlainLog({ kind }: { kind: string }) {
  const [rows] = useFetch(() => get<Row[]>(`/api/${kind}/log?limit=200`), [kind]);
  return (
    <ul class="max-h-80 overflow-y-auto font-mono text-xs" data-testid="logs">
      {(rows ?? []).map((r, i) => (
        <li key={r.id ?? i} class="flex gap-2">
          <span class="shrink-0 text-mute">{formatTime(r.at ?? r.time)}</span>
          <span class="break-all">{r.message}</span>
        </li>
      ))}
      {rows?.length === 0 && <li class="text-mute">{t("common.empty")}</li>}
    </ul>
  );
}
