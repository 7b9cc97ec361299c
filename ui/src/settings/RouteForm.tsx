import { useEffect, useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { get, post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { loadSession } from "../lib/session.ts";
import { BTN_PRIMARY, INPUT_BASE } from "../lib/ui.ts";
import { routeToWire, validateRoute } from "../lib/validate/route.ts";

export const REDIRECT_MS = 3000;

/** Secure route: letters only; after saving, the page moves to the new address after 3 s. */
export function RouteForm() {
  const [route, setRoute] = useState("");
  const [err, setErr] = useState<string | null>(null);
  const [target, setTarget] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    get<{ k: string }>("/api/route")
      .then((r) => setRoute(r.k.replace(/\/$/, "")))
      .catch(() => undefined)
      .finally(() => setLoaded(true));
  }, []);
  const save = async () => {
    const key = route.trim() === "" ? null : validateRoute(route);
    setErr(key ? t(key) : null);
    if (key) return;
    try {
      const r = await post<{ k: string }>("/api/route", { k: routeToWire(route) }, { quiet: true });
      const url = `${location.origin}/${r.k}`;
      setTarget(url);
      loadSession().catch(() => undefined);
      setTimeout(() => location.assign(url), REDIRECT_MS);
    } catch {
      setErr(t("lang.route.err_format"));
    }
  };
  return (
    <div class="space-y-2" data-testid="route-form">
      <div class="flex flex-wrap items-end gap-2">
        <Field label={t("route.label")} error={err} hint={t("route.hint")}>
          <div class="flex items-center gap-1">
            <span class="text-mute">{location.origin}/</span>
            <input
              class={`${INPUT_BASE} w-40`}
              name="route"
              disabled={!loaded}
              value={route}
              onInput={(e) => setRoute(e.currentTarget.value)}
            />
            <span class="text-mute">/</span>
          </div>
        </Field>
        <button type="button" class={BTN_PRIMARY} onClick={save}>
          {t("common.save")}
        </button>
      </div>
      {target && (
        <p role="status" class="text-sm text-warn">
          {t("route.redirect", { url: target })}
        </p>
      )}
    </div>
  );
}
