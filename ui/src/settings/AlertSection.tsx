import { useEffect, useState } from "preact/hooks";
import { Check } from "../components/Check.tsx";
import { Field } from "../components/Field.tsx";
import { get, post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_PRIMARY, INPUT, INPUT_BASE } from "../lib/ui.ts";

interface AlertSetting {
  device_offline: boolean;
  hashrate_drop: number;
  push_key: string;
}
const DROPS = [0, 10, 20, 30, 50, 80];

/** Offline alert: single-device offline notice, port hashrate-drop percentage, push key. */
export function AlertSection() {
  const [s, setS] = useState<AlertSetting>({ device_offline: false, hashrate_drop: 0, push_key: "" });
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    get<AlertSetting>("/api/warning/setting")
      .then(setS)
      .catch(() => undefined)
      .finally(() => setLoaded(true));
  }, []);
  const save = () =>
    post("/api/warning/setting", s).then(
      () => toast("ok", t("common.saved")),
      () => undefined,
    );
  return (
    <div class="space-y-3">
      <Check
        label={t("alert.device_offline")}
        checked={s.device_offline}
        onChange={(v) => setS({ ...s, device_offline: v })}
      />
      <Field label={t("alert.hashrate_drop")}>
        <select
          class={`${INPUT_BASE} w-40`}
          value={s.hashrate_drop}
          onChange={(e) => setS({ ...s, hashrate_drop: Number(e.currentTarget.value) })}
        >
          {DROPS.map((d) => (
            <option key={d} value={d}>
              {d === 0 ? t("alert.off") : `${d}%`}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t("alert.push_key")}>
        <input
          class={INPUT}
          value={s.push_key}
          onInput={(e) => setS({ ...s, push_key: e.currentTarget.value })}
        />
      </Field>
      <button type="button" class={BTN_PRIMARY} disabled={!loaded} onClick={save}>
        {t("common.save")}
      </button>
    </div>
  );
}
