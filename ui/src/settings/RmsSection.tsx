import { useEffect, useState } from "preact/hooks";
import { MAX_BATCH_MS, RMS_DEFAULTS, type RmsSettings as Rms } from "../../../appliance/domain/rms.ts";
import { Field } from "../components/Field.tsx";
import { ApiError, get, post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_PRIMARY, INPUT } from "../lib/ui.ts";
import { RmsTunnels } from "./RmsTunnels.tsx";
import { type RmsUpstream, RmsUpstreamField } from "./RmsUpstream.tsx";

/**
 * Front proxy (RMS): password, port mapping (default or custom server→local), client name, texts and
 * the batch window — handed to the farm clients of the tunnel ports at each connect —, the password this appliance's own
 * RMS2/RMS3 pools present upstream (saved by the same button), and the tunnels connected now.
 */
export function RmsSection() {
  const [s, setS] = useState<Rms>(RMS_DEFAULTS);
  const [map, setMap] = useState("");
  /** null until read: a form that could not read the stored password must not overwrite it */
  const [upstream, setUpstream] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    Promise.all([
      get<Rms>("/api/rms/config", { quiet: true }).then((r) => {
        setS(r);
        setMap(r.port_map.map((m) => `${m.server}:${m.local}`).join("\n"));
      }),
      get<RmsUpstream>("/api/rms/upstream", { quiet: true }).then((r) => setUpstream(r.password)),
    ])
      .catch(() => undefined)
      .finally(() => setLoaded(true));
  }, []);
  const save = () => {
    const port_map = map
      .split("\n")
      .map((l) => l.trim().split(":").map(Number))
      .filter((p) => p.length === 2 && p.every((n) => Number.isInteger(n) && n > 0))
      .map(([server, local]) => ({ server, local }));
    Promise.all([
      post("/api/rms/config", { ...s, port_map }, { quiet: true }),
      upstream === null
        ? null
        : post<RmsUpstream>("/api/rms/upstream", { password: upstream }, { quiet: true }).then((r) =>
            setUpstream(r.password),
          ),
    ]).then(
      () => toast("ok", t("common.saved")),
      // a refused field says which (the batch window's range); anything else is the spec's message
      (e) => toast("err", e instanceof ApiError && e.body !== null ? e.text : t("lang.rms.err_update")),
    );
  };
  const text = (k: "client_name" | "announcement" | "other", label: string) => (
    <Field label={t(label)}>
      <input class={INPUT} value={s[k]} onInput={(e) => setS({ ...s, [k]: e.currentTarget.value })} />
    </Field>
  );
  return (
    <div class="grid gap-3 sm:grid-cols-2">
      {/* nothing is typed before the stored settings arrive: their arrival would overwrite it */}
      <fieldset class="contents" disabled={!loaded}>
        <Field label={t("rms.password")}>
          <input
            class={INPUT}
            type="password"
            value={s.password}
            onInput={(e) => setS({ ...s, password: e.currentTarget.value })}
          />
        </Field>
        {text("client_name", "rms.client_name")}
        <Field label={t("rms.port_mode")}>
          <select
            class={INPUT}
            value={s.port_mode}
            onChange={(e) => setS({ ...s, port_mode: e.currentTarget.value as Rms["port_mode"] })}
          >
            <option value="default">{t("rms.default")}</option>
            <option value="custom">{t("rms.custom")}</option>
          </select>
        </Field>
        {s.port_mode === "custom" && (
          <Field label={t("rms.port_map")} hint={t("rms.port_map_hint")}>
            <textarea
              class={`${INPUT} h-20 font-mono`}
              value={map}
              onInput={(e) => setMap(e.currentTarget.value)}
            />
          </Field>
        )}
        <Field label={t("rms.batch_ms")} hint={t("rms.batch_ms_hint")}>
          <input
            class={INPUT}
            type="number"
            min={0}
            max={MAX_BATCH_MS}
            step={1}
            value={s.batch_ms}
            onInput={(e) => setS({ ...s, batch_ms: e.currentTarget.valueAsNumber })}
          />
        </Field>
        {text("announcement", "rms.announcement")}
        {text("other", "rms.other")}
        <RmsUpstreamField value={upstream ?? ""} onChange={setUpstream} />
        <div class="sm:col-span-2">
          <button type="button" class={BTN_PRIMARY} onClick={save}>
            {t("common.save")}
          </button>
        </div>
      </fieldset>
      <RmsTunnels />
    </div>
  );
}
