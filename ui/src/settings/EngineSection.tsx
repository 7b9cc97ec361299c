import { get, post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_PRIMARY } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

/** Algorithm engine: its version, and a manual quick update (re-applies every port to the engine). */
export function EngineSection() {
  const [v] = useFetch(() => get<{ version: string; runtime: string }>("/api/local/version"), []);
  const update = () =>
    post<{ applied: number }>("/api/config/refresh").then(
      (r) => toast("ok", t("engine.updated", { n: r.applied })),
      () => undefined,
    );
  return (
    <div class="space-y-2">
      <p class="text-sm">
        {t("engine.version")}: <span class="font-mono">{v ? `${v.version} · ${v.runtime}` : "-"}</span>
      </p>
      <p class="text-sm text-mute">{t("engine.help")}</p>
      <button type="button" class={BTN_PRIMARY} onClick={update}>
        {t("engine.quick_update")}
      </button>
    </div>
  );
}
