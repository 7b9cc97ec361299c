import { useState } from "preact/hooks";
import { Check } from "../components/Check.tsx";
import { Field } from "../components/Field.tsx";
import { get, post } from "../lib/api.ts";
import { ask } from "../lib/confirm.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_PRIMARY, INPUT_BASE } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";
import { REDIRECT_MS, RouteForm } from "./RouteForm.tsx";

interface Tls {
  enabled: boolean;
  port: number;
  /** where the console answers HTTPS (0: nowhere), with the certificate of this fingerprint */
  https_port: number;
  fingerprint: string;
}

/** Web access port, HTTPS and the secure route; each change restarts the web server. */
export function WebSection() {
  const [tls, reload] = useFetch(() => get<Tls>("/api/web/tls"), []);
  const [port, setPort] = useState("");
  const [target, setTarget] = useState<string | null>(null);
  /** The server rebinds; the console follows to the new address after 3 s (as for the secure route). */
  const moveTo = (url: URL) => {
    setTarget(url.toString());
    setTimeout(() => location.assign(url.toString()), REDIRECT_MS);
  };
  const savePort = async () => {
    const n = Number(port);
    if (!Number.isInteger(n) || n < 1 || n > 65535) {
      toast("err", t("lang.webport.err_range"));
      return;
    }
    if (!(await ask(t("web.restart_confirm")))) return;
    await post("/api/web/port/restart", { port: n }).then(
      () => {
        const url = new URL(location.href);
        url.port = String(n);
        moveTo(url);
      },
      () => reload(),
    );
  };
  const setHttps = async (on: boolean) => {
    if (!(await ask(t("web.restart_confirm")))) return;
    await post(`/api/web/tls/${on ? 1 : 0}`).then(
      () => {
        const url = new URL(location.href);
        url.protocol = on ? "https:" : "http:";
        moveTo(url);
      },
      () => reload(),
    );
  };
  return (
    <div class="space-y-4">
      <div class="flex flex-wrap items-end gap-2">
        <Field label={t("web.port")} hint={t("web.current", { port: tls?.port ?? "-" })}>
          <input
            class={`${INPUT_BASE} w-32`}
            name="web-port"
            type="number"
            min={1}
            max={65535}
            value={port}
            onInput={(e) => setPort(e.currentTarget.value)}
          />
        </Field>
        <button type="button" class={BTN_PRIMARY} onClick={savePort}>
          {t("common.save")}
        </button>
      </div>
      <Check label={t("web.https")} checked={tls?.enabled ?? false} onChange={setHttps} />
      <dl class="space-y-1 text-sm" data-testid="web-https">
        <dt class="text-xs text-mute">{t("web.https_port")}</dt>
        <dd class="font-mono">{tls ? tls.https_port || t("web.https_none") : "-"}</dd>
        <dt class="text-xs text-mute">{t("web.fingerprint")}</dt>
        <dd class="break-all font-mono text-xs" data-testid="web-fingerprint">
          {tls?.fingerprint ?? "-"}
        </dd>
      </dl>
      {target && (
        <p role="status" class="text-sm text-warn" data-testid="web-redirect">
          {t("web.redirect", { url: target })}
        </p>
      )}
      <RouteForm />
    </div>
  );
}
