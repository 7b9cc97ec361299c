import { useEffect, useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { get, post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { derivedKey } from "../lib/md5-key.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY, INPUT } from "../lib/ui.ts";

/** Custom KENC key: editable key, disabled derived value md5(key)[8:24], save and reset. */
export function KencSection() {
  const [k, setK] = useState("");
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    get<{ k: string }>("/api/kc/key")
      .then((r) => setK(r.k))
      .catch(() => undefined)
      .finally(() => setLoaded(true));
  }, []);
  const save = async () => {
    if (!k.trim()) {
      toast("err", t("lang.kenc.err_empty"));
      return;
    }
    await post("/api/kc/key", { k: k.trim() }, { quiet: true }).then(
      () => toast("ok", t("kenc.saved")),
      () => undefined,
    );
  };
  const reset = async () => {
    await post("/api/kc/reset", {}, { quiet: true }).then(
      () => {
        setK("");
        toast("ok", t("kenc.restored"));
      },
      () => undefined,
    );
  };
  return (
    <div class="space-y-3" data-testid="kenc">
      <Field label={t("kenc.key")}>
        <input
          class={INPUT}
          name="kenc-key"
          disabled={!loaded}
          value={k}
          onInput={(e) => setK(e.currentTarget.value)}
        />
      </Field>
      <Field label={t("kenc.derived")}>
        <input class={`${INPUT} font-mono`} name="kenc-derived" disabled value={derivedKey(k.trim())} />
      </Field>
      <div class="flex gap-2">
        <button type="button" class={BTN_PRIMARY} onClick={save}>
          {t("common.save")}
        </button>
        <button type="button" class={BTN_GHOST} onClick={reset}>
          {t("common.reset")}
        </button>
      </div>
    </div>
  );
}
