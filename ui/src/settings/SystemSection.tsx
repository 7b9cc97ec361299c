import { get } from "../lib/api.ts";
import { formatDuration, formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

interface Base {
  uuid: string;
  version: string;
  runtime: string;
  arch: string;
  platform: string;
  host?: { hostname?: string };
}

/** Local UUID and restart info (start time, uptime, version). */
export function SystemSection() {
  const [b] = useFetch(() => get<Base>("/api/sys/base/info"), []);
  const [s] = useFetch(() => get<{ start: string; uptime_seconds: number }>("/api/sys/starttime"), []);
  const copy = () =>
    navigator.clipboard?.writeText(b?.uuid ?? "").then(
      () => toast("ok", t("common.copied")),
      () => undefined,
    );
  const rows: [string, string][] = [
    ["system.uuid", b?.uuid ?? "-"],
    ["dash.version", b ? `${b.version} (${b.runtime}, ${b.platform}/${b.arch})` : "-"],
    ["system.host", b?.host?.hostname ?? "-"],
    ["system.started", s ? formatTime(s.start) : "-"],
    ["dash.uptime", s ? formatDuration(s.uptime_seconds) : "-"],
  ];
  return (
    <div class="space-y-2" data-testid="system-info">
      <dl class="grid gap-1 text-sm">
        {rows.map(([k, v]) => (
          <div key={k} class="flex gap-2">
            <dt class="w-32 shrink-0 text-mute">{t(k)}</dt>
            <dd class="break-all font-mono">{v}</dd>
          </div>
        ))}
      </dl>
      <button type="button" class={BTN_GHOST} onClick={copy}>
        {t("system.copy_uuid")}
      </button>
    </div>
  );
}
