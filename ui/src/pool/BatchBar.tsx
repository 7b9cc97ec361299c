import { useState } from "preact/hooks";
import { post } from "../lib/api.ts";
import { ask } from "../lib/confirm.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_DANGER, BTN_GHOST } from "../lib/ui.ts";

type Op = "start" | "stop" | "delete";
interface BatchReply {
  succeeded: number[];
  failed: { id: number; key: string; message: string }[];
}

/** Batch open, stop and delete of the selected ports, reporting success and failure counts. */
export function BatchBar({ ids, onDone }: { ids: number[]; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  const run = async (op: Op) => {
    if (op !== "start" && !(await ask(t(`batch.confirm_${op}`, { n: ids.length }), op === "delete"))) return;
    setBusy(true);
    toast("warn", t("port.queued"));
    try {
      const r = await post<BatchReply>("/api/ports/batch", { action: op, ids });
      const ok = r.succeeded.length;
      const fail = r.failed.length;
      toast(
        fail ? "warn" : "ok",
        t("batch.result", { ok, fail }),
        r.failed.map((f) => f.message).join("; ") || undefined,
      );
    } catch {
      /* the client showed the error */
    } finally {
      setBusy(false);
      onDone();
    }
  };
  const off = busy || ids.length === 0;
  return (
    <div class="flex flex-wrap items-center gap-2 text-sm" data-testid="batch-bar">
      <span class="text-mute">{t("batch.selected", { n: ids.length })}</span>
      <button type="button" class={BTN_GHOST} disabled={off} onClick={() => run("start")}>
        {t("batch.start")}
      </button>
      <button type="button" class={BTN_GHOST} disabled={off} onClick={() => run("stop")}>
        {t("batch.stop")}
      </button>
      <button type="button" class={BTN_DANGER} disabled={off} onClick={() => run("delete")}>
        {t("batch.delete")}
      </button>
    </div>
  );
}
