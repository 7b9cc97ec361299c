import { useEffect, useState } from "preact/hooks";
import { Check } from "../components/Check.tsx";
import { Field } from "../components/Field.tsx";
import { api, get, post } from "../lib/api.ts";
import { ask, askReason } from "../lib/confirm.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY, INPUT } from "../lib/ui.ts";

/** Updates: the update source checked for new versions, and a signed bundle uploaded by hand. */
export function UpdateSection() {
  const [url, setUrl] = useState("");
  const [loaded, setLoaded] = useState(false);
  const [bundle, setBundle] = useState<File | null>(null);
  const [force, setForce] = useState(false);
  useEffect(() => {
    get<{ url: string }>("/api/update/source")
      .then((r) => setUrl(r.url))
      .catch(() => undefined)
      .finally(() => setLoaded(true));
  }, []);
  const saveSource = () =>
    post("/api/update/source", { url: url.trim() }).then(
      () => toast("ok", t("common.saved")),
      () => undefined,
    );
  const upload = async () => {
    if (!bundle) {
      toast("err", t("lang.update.err_bundle"));
      return;
    }
    const form = new FormData();
    form.set("bundle", bundle);
    if (force) {
      // a downgrade is kept in the audit log with the reason the operator gives here
      const reason = await askReason(t("update.confirm_downgrade"), t("update.reason"));
      if (reason === null) return;
      form.set("reason", reason);
    } else if (!(await ask(t("update.confirm")))) return;
    await api("POST", `/api/update/upload${force ? "?force=1" : ""}`, undefined, { form }).then(
      () => toast("ok", t("update.installing")),
      () => undefined,
    );
  };
  return (
    <div class="space-y-4" data-testid="updates">
      <div class="flex flex-wrap items-end gap-2">
        <Field label={t("update.source")} hint={t("update.source_hint")} class="min-w-0 flex-1">
          <input
            class={INPUT}
            name="update-source"
            disabled={!loaded}
            value={url}
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
        </Field>
        <button type="button" class={BTN_PRIMARY} disabled={!loaded} onClick={saveSource}>
          {t("common.save")}
        </button>
      </div>
      <div class="space-y-2">
        <label class="block text-sm">
          <span class="mb-1 block text-xs text-mute">{t("update.bundle")}</span>
          <input type="file" name="bundle" onChange={(e) => setBundle(e.currentTarget.files?.[0] ?? null)} />
        </label>
        <Check label={t("update.force")} checked={force} onChange={setForce} />
        <button type="button" class={BTN_GHOST} onClick={upload}>
          {t("update.upload")}
        </button>
      </div>
    </div>
  );
}
