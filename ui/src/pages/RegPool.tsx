import { useState } from "preact/hooks";
import { AddNodePort } from "../dialogs/AddNodePort.tsx";
import { get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { BTN_PRIMARY, CARD } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

interface NodeInfo {
  status?: number;
  data?: { enable?: boolean; templates?: { active: number; total: number } };
}

/** Activate the pool node; status 4 means not activated (spec §4, §8). */
export function RegPool() {
  const [info] = useFetch(
    () => get<NodeInfo>("/api/poolnode/project/info", { quiet: true }).catch(() => ({ status: 4 })),
    [],
  );
  const [adding, setAdding] = useState(false);
  const active = info !== null && info.status !== 4;
  return (
    <div class="space-y-3" data-testid="regpool">
      <h1 class="text-lg font-semibold">{t("poolnode.title")}</h1>
      <section class={CARD}>
        {info === null ? (
          <p class="text-mute">{t("common.loading")}</p>
        ) : active ? (
          <p class="text-ok">{t("poolnode.active")}</p>
        ) : (
          <p role="status" class="text-warn">
            {t("poolnode.not_active")}
          </p>
        )}
        <p class="mt-2 text-sm text-mute">{t("poolnode.help")}</p>
      </section>
      <button type="button" class={BTN_PRIMARY} onClick={() => setAdding(true)}>
        + {t("poolnode.add_port")}
      </button>
      {adding && <AddNodePort onClose={() => setAdding(false)} />}
    </div>
  );
}
