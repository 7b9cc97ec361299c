import { useState } from "preact/hooks";
import { api, get, post } from "../lib/api.ts";
import { ask } from "../lib/confirm.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

/** Global TLS certificate: upload crt or pem plus key, or restore the built-in one. */
export function CertSection() {
  const [info, reload] = useFetch(() => get<Record<string, unknown>>("/api/cert"), []);
  const [cert, setCert] = useState<File | null>(null);
  const [key, setKey] = useState<File | null>(null);
  const upload = async () => {
    if (!cert || !key) {
      toast("err", t("lang.cert.err_missing"));
      return;
    }
    const form = new FormData();
    form.set("cert", cert);
    form.set("key", key);
    await api("POST", "/api/cert/upload", undefined, { form }).then(
      () => toast("ok", t("common.saved")),
      () => undefined,
    );
    reload();
  };
  const reset = async () => {
    if (!(await ask(t("cert.reset_confirm")))) return;
    await post("/api/cert/reset").then(
      () => toast("ok", t("common.saved")),
      () => undefined,
    );
    reload();
  };
  return (
    <div class="space-y-3">
      <dl class="grid gap-1 text-sm">
        {Object.entries(info ?? {}).map(([k, v]) => (
          <div key={k} class="flex gap-2">
            <dt class="w-32 shrink-0 text-mute">{k}</dt>
            <dd class="break-all">{typeof v === "object" ? JSON.stringify(v) : String(v)}</dd>
          </div>
        ))}
      </dl>
      <label class="block text-sm">
        <span class="mb-1 block text-xs text-mute">{t("cert.crt")}</span>
        <input
          type="file"
          accept=".crt,.pem,.cer"
          onChange={(e) => setCert(e.currentTarget.files?.[0] ?? null)}
        />
      </label>
      <label class="block text-sm">
        <span class="mb-1 block text-xs text-mute">{t("cert.key")}</span>
        <input type="file" accept=".key,.pem" onChange={(e) => setKey(e.currentTarget.files?.[0] ?? null)} />
      </label>
      <div class="flex gap-2">
        <button type="button" class={BTN_PRIMARY} onClick={upload}>
          {t("cert.upload")}
        </button>
        <button type="button" class={BTN_GHOST} onClick={reset}>
          {t("cert.reset")}
        </button>
      </div>
    </div>
  );
}
